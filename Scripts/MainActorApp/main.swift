// An app target of Xcode 26's template: isolated to the main actor by default, with
// NonisolatedNonsendingByDefault and InferIsolatedConformances (Scripts/test-consumer.sh builds it with
// warnings as errors). Each file holds documented examples verbatim, each in a function of its own where it
// is a list of statements; what the page leaves to the reader is declared beside it. This runs the examples
// that end on their own, without a network.
import ConfigDirector

try await testYourCode()
try await readJSON(client: offlineClient())
let timed = try timedClient()
precondition(timed.value(for: "dark-mode", default: true))
// The health's stream finishes once the client is closed, so the example ends.
let closed = try offlineClient()
closed.close()
await connectionHealth(client: closed)
print("main-actor app: ok")

/// A client that never connects, for running the examples that read values.
func offlineClient() throws -> ConfigDirectorClient {
    try ConfigDirectorClient(options: ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline)))
}

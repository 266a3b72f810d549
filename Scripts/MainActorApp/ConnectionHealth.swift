import ConfigDirector

// README, "The connection's health" (and the ConfigClient DocC page).
func connectionHealth(client: ConfigDirectorClient) async {
    let health = client.connectionHealth
    print("\(health.mode), \(health.state), values received \(health.lastValuesReceived?.description ?? "never")")
    if let failure = health.lastFailure {
        print("last failure at \(failure.date): \(failure.description)")
    }

    for await health in client.connectionHealthUpdates {
        if case .waitingToRetry(let until) = health.state { print("offline; next attempt at \(until)") }
    }
}

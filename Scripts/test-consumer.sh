#!/usr/bin/env bash
# Builds a throwaway package that depends on this repository the way an app does: by URL, from a
# version. The committed HEAD is cloned to a temporary folder and tagged with the version the SDK reports
# (ConfigDirectorSDK.version); the consumer depends on it by file:// URL `from: "1.7.0"`, as the reference
# page installs it, and builds once with ConfigModel alone and once with the
# ConfigDirector umbrella; then an app target isolated to the main actor by default (Xcode 26's template)
# builds the documented examples (Scripts/MainActorApp) with warnings as errors. Proves that the root manifest resolves as a versioned dependency and that
# the OpenFeature trait's dependency is never fetched by default.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/configdirector-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/sdk"
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' "$root/Packages/ConfigModel/Sources/ConfigModel/ConfigDirectorSDK.swift")
git -C "$work/sdk" -c user.name=consumer -c user.email=consumer@localhost tag "$version"

mkdir -p "$work/consumer/Sources/ModelOnly" "$work/consumer/Sources/WithUmbrella"
cat > "$work/consumer/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "consumer",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [.package(url: "file://$work/sdk", from: "1.7.0")],
    targets: [
        .executableTarget(
            name: "ModelOnly",
            dependencies: [.product(name: "ConfigModel", package: "sdk")]
        ),
        .executableTarget(
            name: "WithUmbrella",
            dependencies: [.product(name: "ConfigDirector", package: "sdk")]
        ),
    ]
)
MANIFEST
cat > "$work/consumer/Sources/ModelOnly/main.swift" <<'SWIFT'
import ConfigModel

let context = ConfigDirectorContext(id: "user-123", traits: ["plan": "pro"])
precondition(context.traits?["plan"] == .string("pro") && Bool(configValue: "TRUE") == true)
print("ConfigModel alone: ok")
SWIFT
cat > "$work/consumer/Sources/WithUmbrella/main.swift" <<'SWIFT'
import ConfigDirector

// Names an app may declare itself: the SDK's internals are not public, so they do not collide.
struct Transport {}
struct ConfigSet {}
struct JSONValue {}
let context = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["region": "North America"])
let options = ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), values: ["k": true])
let client = try! ConfigDirectorClient(options: options)
await client.initialize(context: context)
precondition(client.value(for: "k", default: false) && client.context?.name == "Ada")
client.close()
_ = (Transport(), ConfigSet(), JSONValue())
print("ConfigDirector umbrella: ok")
SWIFT

# An app target as Xcode 26's template makes it: the main actor by default, with the two upcoming features
# that come with it, warnings as errors. Its sources are the examples of the README and of the reference
# page (Docs/configdirector-swift-sdk.md) verbatim; what they leave to the reader is given around them.
app="$work/main-actor-app"
mkdir -p "$app/Sources/MainActorApp"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "main-actor-app",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [.package(url: "file://$work/sdk", from: "1.7.0")],
    targets: [
        .executableTarget(
            name: "MainActorApp",
            dependencies: [
                .product(name: "ConfigDirector", package: "sdk"),
                .product(name: "ConfigDirectorTesting", package: "sdk"),
            ],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .treatAllWarnings(as: .error),
            ]
        )
    ]
)
MANIFEST
cp "$work/sdk/Scripts/MainActorApp/"*.swift "$app/Sources/MainActorApp/"

cd "$work/consumer"
echo "== consumer: ConfigModel alone"
swift build --product ModelOnly
"$(swift build --show-bin-path)/ModelOnly"
echo "== consumer: ConfigDirector"
swift build --product WithUmbrella
"$(swift build --show-bin-path)/WithUmbrella"
if [ -d .build/checkouts/swift-sdk ]; then
    echo "error: the OpenFeature dependency was fetched although its trait is off" >&2
    exit 1
fi
echo "== consumer: an app target isolated to the main actor by default, the documented examples, warnings as errors"
cd "$app"
swift build --product MainActorApp
"$(swift build --show-bin-path)/MainActorApp"
echo "test-consumer: the three consumers built against the SDK tagged $version"

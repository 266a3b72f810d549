// swift-tools-version:6.1
// The test helpers, one copy of each, for the tests of every package: the nested manifests' test targets
// depend on this package by path, and the root manifest declares these same targets (never as a product).
// It depends on the packages whose tests use it, which SwiftPM accepts: the cycle is between packages
// only, not between targets (see CONTRIBUTING.md). `make check-manifests` keeps it in step with the root.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TestSupport",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .library(name: "ModelTestSupport", targets: ["ModelTestSupport"]),
        .library(name: "TransportTestSupport", targets: ["TransportTestSupport"]),
        .library(name: "ClientTestSupport", targets: ["ClientTestSupport"]),
    ],
    dependencies: [
        .package(path: "../ConfigClient"),
        .package(path: "../ConfigModel"),
        .package(path: "../ConfigTransport"),
    ],
    targets: [
        // Lock box, clock, waits, seeded generator, temporary folder: Foundation only.
        .target(name: "TestSupport"),
        // The recording and silent loggers.
        .target(
            name: "ModelTestSupport",
            dependencies: [.product(name: "ConfigModel", package: "ConfigModel"), "TestSupport"]
        ),
        // The manual clock as a transport clock, and the transport event recorder.
        .target(
            name: "TransportTestSupport",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigTransport", package: "ConfigTransport"),
                "TestSupport",
            ]
        ),
        // The client's seams: a driven lifecycle and a recording telemetry sink.
        .target(
            name: "ClientTestSupport",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigTransport", package: "ConfigTransport"),
                .product(name: "ConfigClient", package: "ConfigClient"),
                "TestSupport",
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

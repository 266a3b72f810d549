// swift-tools-version:6.1
// The SDK's benchmarks (issue 9): a separate package so that apps never build it. `make bench` runs it
// in release mode; see README.md.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v13)],
    traits: [
        .trait(name: "Tracing", description: "Builds benchmark 17, the SDK's TracingHook (the SDK's trait Tracing).")
    ],
    dependencies: [
        .package(
            name: "configdirector-swift-sdk",
            path: "../..",
            traits: [.trait(name: "Tracing", condition: .when(traits: ["Tracing"]))]
        ),
        // Resolved only with the trait Tracing, through ../shared/openfeature-kit (`make bench-tracing`).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.4.1"),
    ],
    targets: [
        // Counts heap allocations and live bytes by interposing malloc and friends (Linux, glibc).
        .target(name: "AllocCounter", path: "Sources/AllocCounter"),
        // The tests' helpers (Packages/TestSupport), compiled here against the root's modules: Sources/<Name>
        // are symbolic links to Packages/TestSupport/Sources/<Name>. The root declares these targets without
        // a product, and this package cannot load Packages/TestSupport's own manifest, whose path dependencies
        // would bring a second ConfigModel, ConfigClient… beside the root's (CONTRIBUTING.md).
        .target(name: "TestSupport", swiftSettings: swiftSettings),
        .target(
            name: "ModelTestSupport",
            dependencies: ["TestSupport", .product(name: "ConfigModel", package: "configdirector-swift-sdk")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ClientTestSupport",
            dependencies: [
                "TestSupport",
                .product(name: "ConfigModel", package: "configdirector-swift-sdk"),
                .product(name: "ConfigTransport", package: "configdirector-swift-sdk"),
                .product(name: "ConfigClient", package: "configdirector-swift-sdk"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "AllocCounter",
                "TestSupport",
                "ModelTestSupport",
                "ClientTestSupport",
                .product(name: "ConfigModel", package: "configdirector-swift-sdk"),
                .product(name: "ConfigTransport", package: "configdirector-swift-sdk"),
                .product(name: "ConfigStore", package: "configdirector-swift-sdk"),
                .product(name: "ConfigClient", package: "configdirector-swift-sdk"),
                .product(name: "ConfigEmulator", package: "configdirector-swift-sdk"),
                .product(name: "ConfigTesting", package: "configdirector-swift-sdk"),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            path: "Sources/Benchmarks",
            swiftSettings: swiftSettings
        ),
    ]
)

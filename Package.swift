// swift-tools-version:6.1
// The one manifest that apps depend on. Every module is a target of this manifest, with its
// sources under Packages/<Name>; the Packages/<Name>/Package.swift manifests are for developing
// one package alone and are never loaded together with this one (see CONTRIBUTING.md).
import PackageDescription

/// Settings shared by every target; `make check-manifests` keeps the nested manifests in step.
let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "configdirector-swift-sdk",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "ConfigDirector", targets: ["ConfigDirector"]),
        .library(name: "ConfigDirectorTesting", targets: ["ConfigDirectorTesting"]),
        .library(name: "ConfigDirectorOpenFeatureProvider", targets: ["ConfigDirectorOpenFeatureProvider"]),
        .library(name: "ConfigDirectorInspector", targets: ["ConfigDirectorInspector"]),
        .library(name: "ConfigModel", targets: ["ConfigModel"]),
        .library(name: "ConfigTransport", targets: ["ConfigTransport"]),
        .library(name: "ConfigStore", targets: ["ConfigStore"]),
        .library(name: "ConfigClient", targets: ["ConfigClient"]),
        .library(name: "ConfigTesting", targets: ["ConfigTesting"]),
        .library(name: "ConfigOpenFeature", targets: ["ConfigOpenFeature"]),
        .library(name: "ConfigInspector", targets: ["ConfigInspector"]),
        .library(name: "ConfigEmulator", targets: ["ConfigEmulator"]),
        .executable(name: "config-emulator", targets: ["config-emulator"]),
        .executable(name: "config-demo", targets: ["config-demo"]),
    ],
    traits: [
        .trait(
            name: "OpenFeature",
            description: "Builds ConfigDirectorProvider's conformance to OpenFeature's FeatureProvider."
        ),
        .trait(name: "Logging", description: "Builds SwiftLogLogger, a ConfigDirectorLogger that writes to swift-log."),
        .trait(
            name: "Tracing",
            description:
                "Builds TracingHook, which records each evaluation on the current span (swift-distributed-tracing)."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/open-feature/swift-sdk", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.4.1"),
    ],
    targets: [
        // Packages
        .target(name: "ConfigModel", path: "Packages/ConfigModel/Sources/ConfigModel"),
        .target(
            name: "ConfigTransport",
            dependencies: ["ConfigModel"],
            path: "Packages/ConfigTransport/Sources/ConfigTransport",
            exclude: ["Internal/Socket/README.md"]
        ),
        .target(
            name: "ConfigStore",
            dependencies: ["ConfigModel"],
            path: "Packages/ConfigStore/Sources/ConfigStore",
            resources: [.process("Resources/PrivacyInfo.xcprivacy")]
        ),
        .target(
            name: "ConfigClient",
            dependencies: [
                "ConfigModel", "ConfigTransport", "ConfigStore",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            path: "Packages/ConfigClient/Sources/ConfigClient",
            resources: [.process("Resources/PrivacyInfo.xcprivacy")]
        ),
        .target(
            name: "ConfigTesting",
            dependencies: ["ConfigModel", "ConfigTransport", "ConfigStore", "ConfigClient"],
            path: "Packages/ConfigTesting/Sources/ConfigTesting"
        ),
        .target(
            name: "ConfigOpenFeature",
            dependencies: [
                "ConfigModel", "ConfigStore", "ConfigClient",
                .product(name: "OpenFeature", package: "swift-sdk", condition: .when(traits: ["OpenFeature"])),
            ],
            path: "Packages/ConfigOpenFeature/Sources/ConfigOpenFeature"
        ),
        .target(
            name: "ConfigInspector",
            dependencies: ["ConfigModel", "ConfigClient"],
            path: "Packages/ConfigInspector/Sources/ConfigInspector"
        ),
        .testTarget(
            name: "ConfigModelTests",
            dependencies: ["ConfigModel", "TestSupport", "ModelTestSupport"],
            path: "Packages/ConfigModel/Tests/ConfigModelTests"
        ),
        .testTarget(
            name: "ConfigTransportTests",
            dependencies: [
                "ConfigModel", "ConfigTransport", "TestSupport", "ModelTestSupport", "TransportTestSupport",
            ],
            path: "Packages/ConfigTransport/Tests/ConfigTransportTests"
        ),
        .testTarget(
            name: "ConfigStoreTests",
            dependencies: ["ConfigModel", "ConfigStore", "TestSupport", "ModelTestSupport"],
            path: "Packages/ConfigStore/Tests/ConfigStoreTests"
        ),
        .testTarget(
            name: "ConfigClientTests",
            dependencies: [
                "ConfigModel", "ConfigTransport", "ConfigStore", "ConfigClient", "ConfigTesting",
                "TestSupport", "ModelTestSupport", "TransportTestSupport", "ClientTestSupport",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                ),
            ],
            path: "Packages/ConfigClient/Tests/ConfigClientTests"
        ),
        .testTarget(
            name: "ConfigTestingTests",
            dependencies: ["ConfigModel", "ConfigClient", "ConfigTesting", "TestSupport", "ModelTestSupport"],
            path: "Packages/ConfigTesting/Tests/ConfigTestingTests"
        ),
        .testTarget(
            name: "ConfigOpenFeatureTests",
            dependencies: [
                "ConfigModel", "ConfigClient", "ConfigTesting", "ConfigOpenFeature", "TestSupport", "ModelTestSupport",
                .product(name: "OpenFeature", package: "swift-sdk", condition: .when(traits: ["OpenFeature"])),
            ],
            path: "Packages/ConfigOpenFeature/Tests/ConfigOpenFeatureTests"
        ),
        .testTarget(
            name: "ConfigInspectorTests",
            dependencies: ["ConfigModel", "ConfigClient", "ConfigTesting", "ConfigInspector"],
            path: "Packages/ConfigInspector/Tests/ConfigInspectorTests"
        ),

        // The test helpers, one copy of each, in Packages/TestSupport so that every nested manifest's tests
        // reach them too; never a product (apps must not see them): see CONTRIBUTING.md.
        .target(name: "TestSupport", path: "Packages/TestSupport/Sources/TestSupport"),
        .target(
            name: "ModelTestSupport",
            dependencies: ["ConfigModel", "TestSupport"],
            path: "Packages/TestSupport/Sources/ModelTestSupport"
        ),
        .target(
            name: "TransportTestSupport",
            dependencies: ["ConfigModel", "ConfigTransport", "TestSupport"],
            path: "Packages/TestSupport/Sources/TransportTestSupport"
        ),
        .target(
            name: "ClientTestSupport",
            dependencies: ["ConfigModel", "ConfigTransport", "ConfigClient", "TestSupport"],
            path: "Packages/TestSupport/Sources/ClientTestSupport"
        ),

        // The modules that apps import, as the reference pages name them: re-exports only.
        .target(
            name: "ConfigDirector",
            dependencies: ["ConfigModel", "ConfigTransport", "ConfigStore", "ConfigClient"]
        ),
        .target(name: "ConfigDirectorTesting", dependencies: ["ConfigDirector", "ConfigTesting"]),
        .target(name: "ConfigDirectorOpenFeatureProvider", dependencies: ["ConfigDirector", "ConfigOpenFeature"]),
        .target(name: "ConfigDirectorInspector", dependencies: ["ConfigDirector", "ConfigInspector"]),

        // Tools: the local server that speaks PROTOCOL.md.
        .target(
            name: "ConfigEmulator",
            dependencies: ["ConfigModel"],
            path: "Tools/ConfigEmulator/Sources/ConfigEmulator"
        ),
        .executableTarget(
            name: "config-emulator",
            dependencies: ["ConfigEmulator", "ConfigModel"],
            path: "Tools/ConfigEmulator/Sources/config-emulator"
        ),
        .testTarget(
            name: "ConfigEmulatorTests",
            dependencies: ["ConfigEmulator", "ConfigModel", "TestSupport", "ModelTestSupport", "EmulatorTestSupport"],
            path: "Tools/ConfigEmulator/Tests/ConfigEmulatorTests"
        ),

        // Tools: the demo, `swift run config-demo`, which plays the SDK's story against the emulator.
        .target(
            name: "ConfigDemoKit",
            dependencies: ["ConfigDirector", "ConfigEmulator", "ConfigModel", "ConfigStore"],
            path: "Tools/ConfigDemo/Sources/ConfigDemoKit"
        ),
        .executableTarget(
            name: "config-demo",
            dependencies: ["ConfigDemoKit"],
            path: "Tools/ConfigDemo/Sources/config-demo"
        ),
        .testTarget(
            name: "ConfigDemoTests",
            dependencies: ["ConfigDemoKit", "ConfigDirector", "ConfigEmulator", "TestSupport"],
            path: "Tools/ConfigDemo/Tests/ConfigDemoTests"
        ),

        // Cross-package tests, and the emulator's test helper (ConfigEmulator has no nested manifest, so this
        // helper lives with the root alone).
        .target(
            name: "EmulatorTestSupport",
            dependencies: ["ConfigModel", "ConfigEmulator"],
            path: "Tests/EmulatorTestSupport"
        ),
        .testTarget(
            name: "DocumentedExamplesTests",
            dependencies: [
                "ConfigDirector", "ConfigDirectorTesting", "ConfigEmulator", "TestSupport", "EmulatorTestSupport",
                // The examples of the traits Logging and Tracing, compiled only with them.
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                ),
            ]
        ),
        // The OpenFeature provider page's examples, and the provider against the emulator (trait OpenFeature).
        .testTarget(
            name: "OpenFeatureProviderTests",
            dependencies: [
                "ConfigDirector", "ConfigDirectorTesting", "ConfigDirectorOpenFeatureProvider", "ConfigEmulator",
                "EmulatorTestSupport",
                .product(name: "OpenFeature", package: "swift-sdk", condition: .when(traits: ["OpenFeature"])),
            ]
        ),
        .testTarget(
            name: "ConfigDirectorTests",
            dependencies: [
                "ConfigDirector", "ConfigDirectorTesting", "ConfigDirectorOpenFeatureProvider",
            ]
        ),
        // The SDK against the emulator over loopback: the transports of ConfigTransport and the client.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ConfigModel", "ConfigTransport", "ConfigStore", "ConfigClient", "ConfigEmulator", "TestSupport",
                "ModelTestSupport", "TransportTestSupport", "EmulatorTestSupport",
            ]
        ),
    ]
)

// The documented examples (of both reference pages) compile as an app's code does, with the compiler's
// default settings.
for target in package.targets where !["DocumentedExamplesTests", "OpenFeatureProviderTests"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

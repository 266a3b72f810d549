// swift-tools-version:6.1
// ConfigClient on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigClient",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigClient", targets: ["ConfigClient"])],
    traits: [
        .trait(name: "Logging", description: "Builds SwiftLogLogger, a ConfigDirectorLogger that writes to swift-log."),
        .trait(
            name: "Tracing",
            description:
                "Builds TracingHook, which records each evaluation on the current span (swift-distributed-tracing)."
        ),
    ],
    dependencies: [
        .package(path: "../ConfigModel"),
        .package(path: "../ConfigStore"),
        // The in-memory server the tests drive the client through (ConfigTesting depends on this package).
        .package(path: "../ConfigTesting"),
        .package(path: "../ConfigTransport"),
        .package(path: "../TestSupport"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.4.1"),
    ],
    targets: [
        .target(
            name: "ConfigClient",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigTransport", package: "ConfigTransport"),
                .product(name: "ConfigStore", package: "ConfigStore"),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            resources: [.process("Resources/PrivacyInfo.xcprivacy")]
        ),
        .testTarget(
            name: "ConfigClientTests",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigTransport", package: "ConfigTransport"),
                .product(name: "ConfigStore", package: "ConfigStore"),
                "ConfigClient",
                .product(name: "ConfigTesting", package: "ConfigTesting"),
                .product(name: "TestSupport", package: "TestSupport"),
                .product(name: "ModelTestSupport", package: "TestSupport"),
                .product(name: "TransportTestSupport", package: "TestSupport"),
                .product(name: "ClientTestSupport", package: "TestSupport"),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                ),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

// swift-tools-version:6.1
// ConfigTransport on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigTransport",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigTransport", targets: ["ConfigTransport"])],
    dependencies: [
        .package(path: "../ConfigModel"),
        .package(path: "../TestSupport"),
    ],
    targets: [
        .target(
            name: "ConfigTransport",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel")
            ],
            exclude: ["Internal/Socket/README.md"]
        ),
        .testTarget(
            name: "ConfigTransportTests",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                "ConfigTransport",
                .product(name: "TestSupport", package: "TestSupport"),
                .product(name: "ModelTestSupport", package: "TestSupport"),
                .product(name: "TransportTestSupport", package: "TestSupport"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

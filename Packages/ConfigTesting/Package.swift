// swift-tools-version:6.1
// ConfigTesting on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigTesting",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigTesting", targets: ["ConfigTesting"])],
    dependencies: [
        .package(path: "../ConfigClient"),
        .package(path: "../ConfigModel"),
        .package(path: "../ConfigStore"),
        .package(path: "../ConfigTransport"),
        .package(path: "../TestSupport"),
    ],
    targets: [
        .target(
            name: "ConfigTesting",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigTransport", package: "ConfigTransport"),
                .product(name: "ConfigStore", package: "ConfigStore"),
                .product(name: "ConfigClient", package: "ConfigClient"),
            ]
        ),
        .testTarget(
            name: "ConfigTestingTests",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigClient", package: "ConfigClient"),
                "ConfigTesting",
                .product(name: "TestSupport", package: "TestSupport"),
                .product(name: "ModelTestSupport", package: "TestSupport"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

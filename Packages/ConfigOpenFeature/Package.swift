// swift-tools-version:6.1
// ConfigOpenFeature on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigOpenFeature",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigOpenFeature", targets: ["ConfigOpenFeature"])],
    traits: [
        .trait(
            name: "OpenFeature",
            description: "Builds ConfigDirectorProvider's conformance to OpenFeature's FeatureProvider."
        )
    ],
    dependencies: [
        .package(path: "../ConfigClient"),
        .package(path: "../ConfigModel"),
        .package(path: "../ConfigStore"),
        .package(path: "../ConfigTesting"),
        .package(path: "../TestSupport"),
        .package(url: "https://github.com/open-feature/swift-sdk", from: "0.6.0"),
    ],
    targets: [
        .target(
            name: "ConfigOpenFeature",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigStore", package: "ConfigStore"),
                .product(name: "ConfigClient", package: "ConfigClient"),
                .product(name: "OpenFeature", package: "swift-sdk", condition: .when(traits: ["OpenFeature"])),
            ]
        ),
        .testTarget(
            name: "ConfigOpenFeatureTests",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigClient", package: "ConfigClient"),
                .product(name: "ConfigTesting", package: "ConfigTesting"),
                "ConfigOpenFeature",
                .product(name: "TestSupport", package: "TestSupport"),
                .product(name: "ModelTestSupport", package: "TestSupport"),
                .product(name: "OpenFeature", package: "swift-sdk", condition: .when(traits: ["OpenFeature"])),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

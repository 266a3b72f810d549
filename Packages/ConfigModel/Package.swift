// swift-tools-version:6.1
// ConfigModel on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigModel",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigModel", targets: ["ConfigModel"])],
    dependencies: [
        // The test helpers (Packages/TestSupport depends on this package in turn: see CONTRIBUTING.md).
        .package(path: "../TestSupport")
    ],
    targets: [
        .target(name: "ConfigModel"),
        .testTarget(
            name: "ConfigModelTests",
            dependencies: [
                "ConfigModel",
                .product(name: "TestSupport", package: "TestSupport"),
                .product(name: "ModelTestSupport", package: "TestSupport"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

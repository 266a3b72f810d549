// swift-tools-version:6.1
// ConfigInspector on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigInspector",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigInspector", targets: ["ConfigInspector"])],
    dependencies: [
        .package(path: "../ConfigClient"),
        .package(path: "../ConfigModel"),
        .package(path: "../ConfigTesting"),
    ],
    targets: [
        .target(
            name: "ConfigInspector",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigClient", package: "ConfigClient"),
            ]
        ),
        .testTarget(
            name: "ConfigInspectorTests",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                .product(name: "ConfigClient", package: "ConfigClient"),
                .product(name: "ConfigTesting", package: "ConfigTesting"),
                "ConfigInspector",
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

// swift-tools-version:6.1
// ConfigStore on its own, for developing it alone: siblings are referenced by path. Apps depend on the
// root manifest, which declares this same target; `make check-manifests` keeps the two in step.
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ConfigStore",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [.library(name: "ConfigStore", targets: ["ConfigStore"])],
    dependencies: [
        .package(path: "../ConfigModel"),
        .package(path: "../TestSupport"),
    ],
    targets: [
        .target(
            name: "ConfigStore",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel")
            ],
            resources: [.process("Resources/PrivacyInfo.xcprivacy")]
        ),
        .testTarget(
            name: "ConfigStoreTests",
            dependencies: [
                .product(name: "ConfigModel", package: "ConfigModel"),
                "ConfigStore",
                .product(name: "TestSupport", package: "TestSupport"),
                .product(name: "ModelTestSupport", package: "TestSupport"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}

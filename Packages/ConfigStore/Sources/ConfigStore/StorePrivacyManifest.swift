public import Foundation

/// ConfigStore's privacy manifest, `PrivacyInfo.xcprivacy`, as the module's resource bundle holds it: the
/// required-reason APIs the store calls (see CONTRIBUTING.md, "The privacy manifests").
@_spi(Testing) public enum StorePrivacyManifest {
    /// The manifest in the module's bundle, or `nil` when the bundle lacks it.
    public static var url: URL? {
        Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy")
    }
}

internal import Foundation

/// ConfigStore's privacy manifest, `PrivacyInfo.xcprivacy`, as the module's resource bundle holds it: the
/// required-reason APIs the store calls (see CONTRIBUTING.md, "The privacy manifests").
enum StorePrivacyManifest {
    /// The manifest in the module's bundle, or `nil` when the bundle lacks it.
    static var url: URL? {
        Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy")
    }
}

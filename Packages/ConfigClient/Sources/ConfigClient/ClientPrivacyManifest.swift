internal import Foundation

/// ConfigClient's privacy manifest, `PrivacyInfo.xcprivacy`, as the module's resource bundle holds it: the
/// data the client sends (see CONTRIBUTING.md, "The privacy manifests").
enum ClientPrivacyManifest {
    /// The manifest in the module's bundle, or `nil` when the bundle lacks it.
    static var url: URL? {
        Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy")
    }
}

internal import Foundation

/// Your application's name and version, which targeting rules can refer to.
///
/// Whichever is left `nil` is read from the running app's bundle: `CFBundleDisplayName` (then
/// `CFBundleName`) for the name, `CFBundleShortVersionString` for the version.
public struct ConfigDirectorMetaContext: Sendable, Hashable {
    /// The app's name, or `nil` to read it from the bundle.
    public var appName: String?
    /// The app's version, or `nil` to read it from the bundle.
    public var appVersion: String?

    /// Creates app metadata.
    /// - Parameters:
    ///   - appName: The app's name; `nil` reads it from the bundle.
    ///   - appVersion: The app's version; `nil` reads it from the bundle.
    public init(appName: String? = nil, appVersion: String? = nil) {
        self.appName = appName
        self.appVersion = appVersion
    }

    /// The metadata with the fields left `nil` filled from `bundle`'s information dictionary.
    /// - Parameter bundle: The bundle to read; the main bundle by default.
    /// - Returns: The metadata as sent.
    func filled(from bundle: Bundle = .main) -> ConfigDirectorMetaContext {
        func string(_ key: String) -> String? {
            (bundle.object(forInfoDictionaryKey: key) as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        return ConfigDirectorMetaContext(
            appName: appName ?? string("CFBundleDisplayName") ?? string("CFBundleName"),
            appVersion: appVersion ?? string("CFBundleShortVersionString")
        )
    }
}

public import Foundation

/// Local overrides: values forced on this device, for QA, UI tests and debug screens, that win over every
/// value the client would serve otherwise (live, kept, bundled, default).
///
/// Off by default: a client whose options do not turn them on ignores every way of setting one (and logs so
/// once). Turn them on in debug builds only:
///
/// ```swift
/// var options = ConfigDirectorClientOptions()
/// #if DEBUG
/// options.overrides = .enabled
/// #endif
/// ```
///
/// With overrides on, the client also reads overrides from the process's launch arguments and environment, so
/// that a UI test launches the app with values forced: the argument `-ConfigDirectorOverrides` followed by a
/// JSON object, or the environment variable `CONFIGDIRECTOR_OVERRIDES` holding one. Each member is a key and
/// its value, typed by its JSON type: `true` is a boolean config, `3` an integer, `2.5` a float, `"blue"` a
/// string, an object or an array a JSON config. The launch argument wins over the environment, and both over
/// the overrides kept from earlier launches; they are never kept. A malformed entry is logged once and
/// ignored.
///
/// ```swift
/// let app = XCUIApplication()
/// app.launchArguments += ["-ConfigDirectorOverrides", #"{"dark-mode": true, "max-items": 3}"#]
/// app.launch()
/// ```
public struct LocalOverrideOptions: Sendable {
    /// Whether overrides can be set; `false` by default.
    public var isEnabled: Bool
    /// Whether the overrides set through the client are kept across launches, in a file of the SDK's folder;
    /// `false` by default.
    public var persists: Bool
    /// Whether the overrides in the launch arguments and environment are read; `true` by default.
    public var readsLaunchArguments: Bool
    /// The folder of the kept overrides; the SDK's folder in Application Support (Caches on tvOS; on Linux,
    /// `$XDG_DATA_HOME` or `~/.local/share`) by default.
    public var directory: URL?

    /// Overrides turned off, the default: every way of setting one is ignored.
    public static let disabled = LocalOverrideOptions()
    /// Overrides turned on, read from the launch arguments and environment, not kept across launches.
    public static let enabled = LocalOverrideOptions(isEnabled: true)

    /// The launch argument that, followed by a JSON object, sets overrides for the launch.
    public static let launchArgument = "-ConfigDirectorOverrides"
    /// The environment variable that, holding a JSON object, sets overrides for the launch.
    public static let environmentVariable = "CONFIGDIRECTOR_OVERRIDES"

    /// Creates override options.
    /// - Parameters:
    ///   - isEnabled: Whether overrides can be set; `false` by default.
    ///   - persists: Whether overrides set through the client are kept across launches; `false` by default.
    ///   - readsLaunchArguments: Whether the launch arguments and environment are read; `true` by default.
    ///   - directory: The folder of the kept overrides; the SDK's folder by default.
    public init(
        isEnabled: Bool = false,
        persists: Bool = false,
        readsLaunchArguments: Bool = true,
        directory: URL? = nil
    ) {
        self.isEnabled = isEnabled
        self.persists = persists
        self.readsLaunchArguments = readsLaunchArguments
        self.directory = directory
    }
}

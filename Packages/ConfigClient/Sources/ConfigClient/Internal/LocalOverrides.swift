@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigStore
internal import Foundation

/// A client's local overrides apart from its table, which serves them: whether they are on, the ones set through
/// the client that are kept across launches, and the overrides of the launch arguments and environment.
///
/// Locks: ``keptOverrides`` is changed only by the core's override changes, which take turns (the core's
/// `applies` lock), so that the file is written in the order of the changes.
final class LocalOverrides: Sendable {
    let options: LocalOverrideOptions
    private let logger: any ConfigDirectorLogger
    private let store: OverrideStore?
    /// The overrides set through the client, as the file keeps them (when it does).
    private let keptOverrides = Locked<[ExactKey: ConfigState]>([:])
    private let writes = SerialQueue()
    private let hasWarnedOff = Locked(false)

    init(options: LocalOverrideOptions, clientSDKKey: String, logger: any ConfigDirectorLogger) {
        self.options = options
        self.logger = logger
        store =
            options.isEnabled && options.persists
            ? OverrideStore(clientSDKKey: clientSDKKey, directory: options.directory) : nil
    }

    /// Whether an override may be set; logs once, the first time one is refused, that overrides are off.
    func allowsChanges() -> Bool {
        guard !options.isEnabled else { return true }
        let warns = hasWarnedOff.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if warns {
            logger.warn(
                "Local overrides are off (ConfigDirectorClientOptions.overrides): every override set is ignored. "
                    + "This is logged once."
            )
        }
        return false
    }

    /// The overrides a client starts with, in the order they apply: the ones kept from earlier launches, then
    /// the environment's, then the launch arguments'.
    func initialOverrides(arguments: [String], environment: [String: String]) -> [(key: String, state: ConfigState)] {
        guard options.isEnabled else {
            if options.readsLaunchArguments, Self.launchText(arguments: arguments, environment: environment) != nil {
                logger.warn(
                    "Local overrides are off (ConfigDirectorClientOptions.overrides): the overrides of the launch "
                        + "arguments or environment are ignored."
                )
            }
            return []
        }
        var overrides: [(key: String, state: ConfigState)] = []
        if let store {
            let (stored, problem) = store.read()
            if let problem { logger.warn("Local overrides: \(problem); none is kept from earlier launches.") }
            let keyed = stored.compactMap { state in state.key.map { (key: $0, state: state) } }
            overrides += keyed
            keptOverrides.withLock { kept in
                for (key, state) in keyed { kept[ExactKey(key)] = state }
            }
        }
        guard options.readsLaunchArguments else { return overrides }
        if let text = environment[LocalOverrideOptions.environmentVariable] {
            overrides += parse(text, from: "the environment variable \(LocalOverrideOptions.environmentVariable)")
        }
        if let text = Self.argumentText(arguments) {
            overrides += parse(text, from: "the launch argument \(LocalOverrideOptions.launchArgument)")
        }
        return overrides
    }

    /// Records that the overrides of `keys` were set to `state` or removed (`nil`) through the client, and writes
    /// the overrides kept when they are kept. Called in turn with every other change of the overrides.
    func keep(_ state: ConfigState?, for keys: [String]) {
        guard let store else { return }
        let kept = keptOverrides.withLock { kept in
            for key in keys { kept[ExactKey(key)] = state }
            return kept
        }
        let overrides = kept.sorted { $0.key < $1.key }.map(\.value)
        writes.enqueue { [logger] in
            do {
                try store.write(overrides)
            } catch {
                logger.warn("Local overrides: the overrides could not be kept (\(error.localizedDescription)).")
            }
        }
    }

    /// Waits until every write of the overrides kept has ended.
    func written() async {
        await writes.idle()
    }

    // MARK: - Launch arguments and environment

    private static func launchText(arguments: [String], environment: [String: String]) -> String? {
        argumentText(arguments) ?? environment[LocalOverrideOptions.environmentVariable]
    }

    /// The argument after the last `-ConfigDirectorOverrides`.
    private static func argumentText(_ arguments: [String]) -> String? {
        guard let index = arguments.lastIndex(of: LocalOverrideOptions.launchArgument),
            index + 1 < arguments.count
        else { return nil }
        return arguments[index + 1]
    }

    /// The overrides of a JSON object, each member typed by its JSON type; what does not read is logged once
    /// (one line for the text) and left out.
    private func parse(_ text: String, from origin: String) -> [(key: String, state: ConfigState)] {
        guard case .dictionary(let members)? = try? JSONValue(parsing: text) else {
            logger.error(
                "Local overrides: \(origin) is not a JSON object such as {\"dark-mode\": true}; it is ignored.")
            return []
        }
        var overrides: [(key: String, state: ConfigState)] = []
        var ignored: [String] = []
        for key in members.keys.sorted() {
            guard let member = members[key], !key.allSatisfy(\.isWhitespace),
                let state = Self.configState(of: member, key: key)
            else {
                ignored.append(key)
                continue
            }
            overrides.append((key, state))
        }
        if !ignored.isEmpty {
            let names = ignored.map { "'\($0)'" }.joined(separator: ", ")
            logger.error(
                "Local overrides: \(origin) gives no value that reads for \(names) (blank key or null); ignored.")
        }
        return overrides
    }

    /// The config a JSON value serves: `true` a boolean, `3` an integer, `2.5` a float, a string itself, an
    /// object or an array a JSON config; `nil` for `null`.
    private static func configState(of value: JSONValue, key: String) -> ConfigState? {
        let (type, text): (ConfigType, String)
        switch value {
        case .null: return nil
        case .bool(let bool): (type, text) = (.boolean, bool ? "true" : "false")
        case .int(let int): (type, text) = (.integer, String(int))
        case .double(let double): (type, text) = (.float, ServedValue.plainDecimalText(of: double))
        case .string(let string): (type, text) = (.string, string)
        case .array, .dictionary: (type, text) = (.json, value.jsonText)
        }
        return ConfigOverride(key: key, type: type, value: text).configState
    }
}

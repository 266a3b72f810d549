@_spi(Internal) internal import ConfigModel

extension ClientCore {
    private var localOverrides: LocalOverrides { dependencies.localOverrides }

    /// Serves the overrides a client starts with (kept from earlier launches, then the environment's and the
    /// launch arguments', the later winning), before the app can read anything.
    func serveInitialOverrides(arguments: [String], environment: [String: String]) {
        let initial = localOverrides.initialOverrides(arguments: arguments, environment: environment)
        guard !initial.isEmpty else { return }
        changeOverrides { table in table.setOverrides(initial.lazy.map { (ExactKey($0.key), $0.state) }) }
    }

    /// Serves `override` for its key over any other value, unless overrides are off.
    func setOverride(_ override: ConfigOverride) {
        guard localOverrides.allowsChanges() else { return }
        let state = override.configState
        changeOverrides { table in
            localOverrides.keep(state, for: [override.key])
            return table.setOverride(state, for: override.key)
        }
    }

    /// Removes the override of `key`, unless overrides are off.
    func removeOverride(for key: String) {
        guard localOverrides.allowsChanges() else { return }
        changeOverrides { table in
            let update = table.removeOverride(for: key)
            if update != nil { localOverrides.keep(nil, for: [key]) }
            return update
        }
    }

    /// Removes every override, unless overrides are off.
    func removeAllOverrides() {
        guard localOverrides.allowsChanges() else { return }
        changeOverrides { table in
            let keys = table.overrides.keys
            let update = table.removeOverrides(for: keys)
            if update != nil { localOverrides.keep(nil, for: keys.map(\.name)) }
            return update
        }
    }

    /// Logs, once, that overrides are off when they are: for an override that is refused before it is made.
    func overridesAllowChanges() -> Bool { localOverrides.allowsChanges() }
}

@_spi(Internal) internal import ConfigModel

extension ClientCore {
    private var localOverrides: LocalOverrides { dependencies.localOverrides }

    /// Serves the overrides a client starts with (kept from earlier launches, then the environment's and the
    /// launch arguments'), before the app can read anything.
    func serveInitialOverrides(arguments: [String], environment: [String: String]) {
        let initial = localOverrides.initialOverrides(arguments: arguments, environment: environment)
        guard !initial.isEmpty else { return }
        changeOverrides { table in
            var keys: [String] = []
            for (key, state) in initial where table.setOverride(state, for: key) != nil { keys.append(key) }
            return keys.isEmpty ? nil : ConfigsUpdate(keys: ExactKey.sortedNames(Set(keys.map { ExactKey($0) })))
        }
    }

    /// Serves `override` for its key over any other value, unless overrides are off.
    func setOverride(_ override: ConfigOverride) {
        guard localOverrides.allowsChanges() else { return }
        let state = override.configState
        changeOverrides { table in
            let update = table.setOverride(state, for: override.key)
            localOverrides.keep(state, for: override.key)
            return update
        }
    }

    /// Removes the override of `key`, unless overrides are off.
    func removeOverride(for key: String) {
        guard localOverrides.allowsChanges() else { return }
        changeOverrides { table in
            let update = table.removeOverride(for: key)
            if update != nil { localOverrides.keep(nil, for: key) }
            return update
        }
    }

    /// Removes every override, unless overrides are off.
    func removeAllOverrides() {
        guard localOverrides.allowsChanges() else { return }
        changeOverrides { table in
            var keys: [String] = []
            var removedKeys: [String] = []
            for key in ExactKey.sortedNames(table.overrides.keys) {
                guard let update = table.removeOverride(for: key) else { continue }
                keys += update.keys
                removedKeys += update.removedKeys
                localOverrides.keep(nil, for: key)
            }
            return keys.isEmpty && removedKeys.isEmpty ? nil : ConfigsUpdate(keys: keys, removedKeys: removedKeys)
        }
    }

    /// Logs, once, that overrides are off when they are: for an override that is refused before it is made.
    func overridesAllowChanges() -> Bool { localOverrides.allowsChanges() }
}

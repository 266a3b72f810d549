import Foundation

/// A `UserDefaults` suite of its own, removed by ``remove()``.
struct TemporaryDefaults {
    struct Unavailable: Error {}

    let defaults: UserDefaults
    let suiteName: String

    init() throws {
        suiteName = "com.configdirector.tests.\(UUID().uuidString)"
        guard let defaults = UserDefaults(suiteName: suiteName) else { throw Unavailable() }
        self.defaults = defaults
    }

    func remove() {
        defaults.removePersistentDomain(forName: suiteName)
    }
}

@_spi(Internal) import ConfigModel

extension JSONValue {
    /// The member `name` of an object; `nil` when it is absent or this is not an object.
    subscript(name: String) -> JSONValue? {
        guard case .dictionary(let members) = self else { return nil }
        return members[name]
    }

    /// Whether this is an object with a member `name` (of any value, `null` included).
    func hasMember(_ name: String) -> Bool {
        self[name].map { _ in true } ?? false
    }
}

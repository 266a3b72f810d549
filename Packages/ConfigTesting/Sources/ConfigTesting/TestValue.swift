@_spi(Internal) public import ConfigClient

/// A value the test client serves, written as a literal; the config type follows the case.
///
/// `true` is a boolean config, `20` an integer config, `2.5` a float config, `"Ada"` a string config,
/// `["theme": "dark", "limit": 3]` a JSON object and `["x", "y"]` a JSON array. A string is always a
/// string config, so JSON meant as a JSON config is written as an object or array literal. A JSON
/// object is served with its keys in sorted order, and a float as plain decimal text.
///
/// ```swift
/// let testClient = makeTestClient(values: ["new-checkout": true, "max-items": 20])
/// testClient.setValue(["theme": "dark", "limit": 3], for: "appearance")
/// testClient.setValue(.integer(items.count), for: "max-items")
/// ```
///
/// It is the type offline mode serves, ``ServedValue``, under the name tests use. A number that is not
/// finite cannot be served: giving one to ``makeTestClient(values:timeout:logger:hooks:)``,
/// ``TestClient/setValue(_:for:)`` or ``TestClient/replaceValues(_:)`` stops the test with a
/// precondition failure.
public typealias TestValue = ServedValue

extension TestValue {
    /// The value, after checking that it and `key` can be served; a blank key or a number that is
    /// not finite is a programming error and stops the test.
    func checkedServedValue(forKey key: String) -> ServedValue {
        if let problem = problem(forKey: key) {
            preconditionFailure("The test value \(text) for the key '\(key)' cannot be served: \(problem).")
        }
        return self
    }
}

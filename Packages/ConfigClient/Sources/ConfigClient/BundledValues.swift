@_spi(Internal) internal import ConfigModel
public import Foundation

/// Values the app ships, served before anything else is known: until values kept on the device or
/// live values arrive.
///
/// Live values win over values kept on the device, which win over bundled values, which win over the
/// defaults given in code. Bundled values never make the client ready; ``ConfigDirectorClient/valueSource``
/// is ``ConfigValueSource/bundledValues`` while they are served, and a `configsUpdated` event marks
/// their replacement (the keys the new values lack are in its `removedKeys`).
///
/// Give them in code, or as a JSON file in the app bundle in the format of a full config set, the
/// payload ConfigDirector serves, so that a team can export it:
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     clientSDKKey: "YOUR-CLIENT-SDK-KEY",
///     options: ConfigDirectorClientOptions(bundledValues: .resource(named: "configdirector-defaults"))
/// )
/// ```
///
/// ```json
/// {
///   "kind": "full",
///   "configs": {
///     "dark-mode": { "key": "dark-mode", "type": "boolean", "value": "true" },
///     "theme": { "key": "theme", "type": "json", "value": "{\"primary\":\"#101010\"}" }
///   }
/// }
/// ```
///
/// In the file a config's `value` is its text, as on the wire, or a JSON literal, served as the text it
/// would be on the wire (the rule of the emulator's configs file): `true` is `"true"`, `42` is `"42"`, an
/// object or an array (`{"primary": "#101010"}`) its compact JSON text. A string stays as its text (a
/// `json` config's string is its document), and `null`, like a missing `value`, is no value.
///
/// The file is read when the client is created. A missing or malformed file, or a value that cannot be
/// served, is a programming error: the client's initializer throws
/// ``ConfigDirectorError/invalidBundledValues(file:reason:)``, with the file and the line and column.
public struct BundledValues: Sendable, Hashable {
    enum Source: Sendable, Hashable {
        case values([String: ServedValue])
        case file(URL)
        case missingResource(name: String, fileExtension: String)
    }

    let source: Source

    /// Values given in code, written as ``ServedValue`` literals.
    /// - Parameter values: The values, by config key.
    public init(_ values: [String: ServedValue]) {
        source = .values(values)
    }

    /// A JSON file in the format of a full config set.
    /// - Parameter url: The file's URL.
    public init(contentsOf url: URL) {
        source = .file(url)
    }

    /// A JSON file, in the format of a full config set, among the resources of a bundle.
    /// - Parameters:
    ///   - name: The resource's name.
    ///   - fileExtension: The resource's extension; `json` by default.
    ///   - bundle: The bundle; the app's main bundle by default.
    /// - Returns: The bundled values of that file.
    public static func resource(
        named name: String,
        withExtension fileExtension: String = "json",
        in bundle: Bundle = .main
    ) -> BundledValues {
        guard let url = bundle.url(forResource: name, withExtension: fileExtension) else {
            return BundledValues(source: .missingResource(name: name, fileExtension: fileExtension))
        }
        return BundledValues(contentsOf: url)
    }

    private init(source: Source) {
        self.source = source
    }
}

extension BundledValues: ExpressibleByDictionaryLiteral {
    /// Values given in code; a repeated key keeps its last value.
    /// - Parameter elements: The values, by config key.
    public init(dictionaryLiteral elements: (String, ServedValue)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension BundledValues {
    /// The full set the values serve, read and checked.
    /// - Throws: ``ConfigDirectorError/invalidBundledValues(file:reason:)``.
    func configSet() throws(ConfigDirectorError) -> ConfigSet {
        switch source {
        case .values(let values):
            return try ServedValue.fullSet(of: values) { key, problem in
                .invalidBundledValues(file: nil, reason: "the value of '\(key)' cannot be served: \(problem)")
            }
        case .missingResource(let name, let fileExtension):
            throw .invalidBundledValues(
                file: "\(name).\(fileExtension)", reason: "the bundle has no resource of that name")
        case .file(let url):
            let bytes: Data
            do {
                bytes = try Data(contentsOf: url)
            } catch {
                throw .invalidBundledValues(file: url.path, reason: "it cannot be read (\(error.localizedDescription))")
            }
            let decoded: ConfigSet?
            do {
                decoded = try ConfigSet(bundledJSONBytes: bytes)
            } catch {
                let (line, column) = Self.position(ofByte: error.offset, in: bytes)
                throw .invalidBundledValues(
                    file: url.path,
                    reason: "invalid JSON at line \(line), column \(column) (byte \(error.offset)): \(error.reason)"
                )
            }
            guard let set = decoded else {
                throw .invalidBundledValues(
                    file: url.path, reason: "it has no configs object, so it is not a config set (PROTOCOL §3)")
            }
            return ConfigSet(
                environmentID: set.environmentID,
                projectID: set.projectID,
                kind: .full,
                timestamp: set.timestamp,
                configs: set.configs
            )
        }
    }

    /// The line and column, from 1, of the byte at `offset`; a column counts bytes.
    static func position(ofByte offset: Int, in bytes: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}

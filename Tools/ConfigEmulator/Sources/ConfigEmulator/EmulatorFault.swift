/// A fault the emulator injects into what it serves.
///
/// In the admin API a fault is a JSON object with a `type` and its parameters, posted to `/admin/faults`:
/// `{"type": "status", "path": "/client/sse/v1", "status": 503, "count": 2, "retryAfter": "5"}`,
/// `{"type": "dropStreams"}`, `{"type": "stall", "seconds": 2, "path": "/client/polling/v1"}`,
/// `{"type": "malformedEvent"}`, `{"type": "oversizedEvent", "bytes": 100000}`, `{"type": "byteByByte"}`,
/// `{"type": "closeAfterEvents", "count": 3}`.
public enum EmulatorFault: Sendable, Hashable, Codable {
    /// The next `count` requests to `path` are answered with `status` (and a `Retry-After` header when given),
    /// whatever they carry.
    case status(Int, path: String, count: Int = 1, retryAfter: String? = nil)
    /// Every open stream is closed now, abruptly, without the chunked body's end.
    case dropStreams
    /// The next response to `path` (any `/client/…` path when `nil`) waits `seconds` before its first byte.
    case stall(seconds: Double, path: String? = nil)
    /// Every open stream gets an event whose data is not JSON, now.
    case malformedEvent
    /// Every open stream gets a valid delta whose data is larger than `bytes`, now; it carries a config
    /// `emulator-oversized` whose value pads it.
    case oversizedEvent(bytes: Int)
    /// The next event written on any stream goes out one byte per chunk, each sent on its own.
    case byteByByte
    /// The next stream to open is closed (its chunked body ended cleanly) after it has sent `count` events.
    case closeAfterEvents(Int)

    private enum CodingKeys: String, CodingKey {
        case type, status, path, count, retryAfter, seconds, bytes
    }

    /// Decodes the admin API's form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "status":
            self = .status(
                try container.decode(Int.self, forKey: .status),
                path: try container.decode(String.self, forKey: .path),
                count: try container.decodeIfPresent(Int.self, forKey: .count) ?? 1,
                retryAfter: try Self.decodeRetryAfter(container)
            )
        case "dropStreams": self = .dropStreams
        case "stall":
            self = .stall(
                seconds: try container.decode(Double.self, forKey: .seconds),
                path: try container.decodeIfPresent(String.self, forKey: .path)
            )
        case "malformedEvent": self = .malformedEvent
        case "oversizedEvent": self = .oversizedEvent(bytes: try container.decode(Int.self, forKey: .bytes))
        case "byteByByte": self = .byteByByte
        case "closeAfterEvents": self = .closeAfterEvents(try container.decode(Int.self, forKey: .count))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown fault type \(type)"
            )
        }
        guard isValid else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "fault parameter out of range"
            )
        }
    }

    private static func decodeRetryAfter(_ container: KeyedDecodingContainer<CodingKeys>) throws -> String? {
        if let seconds = try? container.decodeIfPresent(Int.self, forKey: .retryAfter) { return String(seconds) }
        return try container.decodeIfPresent(String.self, forKey: .retryAfter)
    }

    /// Encodes the admin API's form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .status(let status, let path, let count, let retryAfter):
            try container.encode("status", forKey: .type)
            try container.encode(status, forKey: .status)
            try container.encode(path, forKey: .path)
            try container.encode(count, forKey: .count)
            try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        case .dropStreams: try container.encode("dropStreams", forKey: .type)
        case .stall(let seconds, let path):
            try container.encode("stall", forKey: .type)
            try container.encode(seconds, forKey: .seconds)
            try container.encodeIfPresent(path, forKey: .path)
        case .malformedEvent: try container.encode("malformedEvent", forKey: .type)
        case .oversizedEvent(let bytes):
            try container.encode("oversizedEvent", forKey: .type)
            try container.encode(bytes, forKey: .bytes)
        case .byteByByte: try container.encode("byteByByte", forKey: .type)
        case .closeAfterEvents(let count):
            try container.encode("closeAfterEvents", forKey: .type)
            try container.encode(count, forKey: .count)
        }
    }

    /// Whether the parameters are in range: a status of 100–599, counts of at least 1, sizes up to 64 MiB,
    /// stalls of 0–600 seconds.
    public var isValid: Bool {
        switch self {
        case .status(let status, let path, let count, let retryAfter):
            (100...599).contains(status) && path.hasPrefix("/") && count >= 1
                && !(retryAfter ?? "").contains(where: { $0 == "\r" || $0 == "\n" })
        case .stall(let seconds, _): (0...600).contains(seconds)
        case .oversizedEvent(let bytes): (1...(64 << 20)).contains(bytes)
        case .closeAfterEvents(let count): count >= 1
        case .dropStreams, .malformedEvent, .byteByByte: true
        }
    }
}

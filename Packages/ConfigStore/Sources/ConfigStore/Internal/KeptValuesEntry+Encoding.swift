@_spi(Internal) internal import ConfigModel
internal import Foundation

extension KeptValuesEntry {
    /// The entry as the JSON document kept on the device, or `nil` when it takes more than `limit` bytes.
    ///
    /// The size is counted first, and the count stops at the first config past the limit, so that an entry
    /// refused for its size is never encoded whole; an entry within it is then written once, into a string
    /// of exactly its size: a write holds the entry once, with no intermediate document nor growing buffer.
    /// - Parameter limit: The largest entry kept, in UTF-8 bytes.
    func encoded(upTo limit: Int) -> String? {
        var counter = ByteCounter(limit: limit)
        guard write(to: &counter), !counter.isFull else { return nil }
        return String(unsafeUninitializedCapacity: counter.count) { buffer in
            var writer = ByteWriter(buffer: buffer)
            _ = write(to: &writer)
            return writer.count
        }
    }

    /// Writes the document; `false` once the sink is full, which stops it between two configs.
    private func write(to sink: inout some EntrySink) -> Bool {
        sink.append("{\"formatVersion\":\(formatVersion),\"sdkVersion\":")
        sink.appendString(sdkVersion)
        sink.append(",\"sdkKeyHash\":")
        sink.appendString(sdkKeyHash)
        sink.append(",\"context\":{\"kind\":")
        sink.appendString(context.kind)
        if let id = context.id {
            sink.append(",\"id\":")
            sink.appendString(id)
        } else {
            sink.append(",\"withoutId\":true,\"instanceId\":")
            sink.appendString(context.instanceID ?? "")
        }
        sink.append("},\"writtenAt\":")
        sink.appendString(writtenAt.formatted(Date.ISO8601FormatStyle()))
        sink.append(",\"\(Self.configSetKey)\":{")
        if let environmentID = configSet.environmentID {
            sink.append("\"environmentId\":")
            sink.appendString(environmentID)
            sink.append(",")
        }
        if let projectID = configSet.projectID {
            sink.append("\"projectId\":")
            sink.appendString(projectID)
            sink.append(",")
        }
        sink.append("\"kind\":")
        sink.appendString(configSet.kind.rawValue)
        if let timestamp = configSet.timestamp {
            sink.append(",\"timestamp\":")
            sink.appendString(timestamp)
        }
        sink.append(",\"configs\":{")
        var isFirst = true
        for (key, state) in configSet.configs {
            if sink.isFull { return false }
            if !isFirst { sink.append(",") }
            isFirst = false
            sink.appendString(key.name)
            sink.append(":{")
            if let id = state.id {
                sink.append("\"id\":")
                sink.appendString(id)
                sink.append(",")
            }
            if let key = state.key {
                sink.append("\"key\":")
                sink.appendString(key)
                sink.append(",")
            }
            sink.append("\"type\":")
            sink.appendString(state.type.rawValue)
            if let value = state.value {
                sink.append(",\"value\":")
                sink.appendString(value)
            }
            if let valueID = state.valueID {
                sink.append(",\"valueId\":")
                sink.appendString(valueID)
            }
            sink.append("}")
        }
        sink.append("}}}")
        return true
    }
}

/// Where the bytes of an entry go: counted, or written.
private protocol EntrySink {
    /// Whether more bytes went in than the sink takes.
    var isFull: Bool { get }
    mutating func append(byte: UInt8)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
}

extension EntrySink {
    /// Appends JSON text of the SDK's own, which needs no escape.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    /// Appends `string` as a JSON string: quoted, with `"`, `\` and control characters escaped (RFC 8259).
    mutating func appendString(_ string: String) {
        append(byte: UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                append(byte: UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte: byte)
                case 0x0A: append(byte: UInt8(ascii: "n"))
                case 0x0D: append(byte: UInt8(ascii: "r"))
                case 0x09: append(byte: UInt8(ascii: "t"))
                case 0x08: append(byte: UInt8(ascii: "b"))
                case 0x0C: append(byte: UInt8(ascii: "f"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    for digit in [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                        hex[Int(byte & 0xF)],
                    ] {
                        append(byte: digit)
                    }
                }
            }
            append(bytes: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        append(byte: UInt8(ascii: "\""))
    }
}

/// Counts an entry's bytes, up to just past a limit.
private struct ByteCounter: EntrySink {
    let limit: Int
    var count = 0
    var isFull: Bool { count > limit }
    mutating func append(byte: UInt8) { count += 1 }
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) { count += bytes.count }
}

/// Writes an entry's bytes into memory counted for it first.
private struct ByteWriter: EntrySink {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0
    var isFull: Bool { false }

    init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func append(byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer.baseAddress! + count).update(from: source, count: bytes.count)
        count += bytes.count
    }
}

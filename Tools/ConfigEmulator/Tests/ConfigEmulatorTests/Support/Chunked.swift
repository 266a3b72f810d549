/// Splits a raw HTTP response into its head and the chunks of its chunked body.
enum Chunked {
    /// The chunks that arrived complete, and whether the last chunk (size 0) was among them.
    static func chunks(of response: [UInt8]) -> (chunks: [[UInt8]], ended: Bool) {
        guard let headEnd = find([13, 10, 13, 10], in: response, from: 0) else { return ([], false) }
        var chunks: [[UInt8]] = []
        var position = headEnd + 4
        while let lineEnd = find([13, 10], in: response, from: position) {
            guard let size = Int(String(decoding: response[position..<lineEnd], as: UTF8.self), radix: 16) else {
                break
            }
            if size == 0 { return (chunks, true) }
            let start = lineEnd + 2
            guard response.count >= start + size + 2 else { break }
            chunks.append(Array(response[start..<start + size]))
            position = start + size + 2
        }
        return (chunks, false)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where Array(bytes[index..<index + needle.count]) == needle {
            return index
        }
        return nil
    }
}

import AllocCounter
@_spi(Testing) import ConfigTransport
import Foundation

/// 9. The SSE parser under a hostile stream (issue 18): a flood of comment lines, and one long line,
/// fed in 64 KiB chunks as the socket hands them on.
func benchmarkStreamParsing() async {
    print("\n== 10. SSE parser under a comment flood and a long line")
    let chunkSize = 64 * 1024
    let total = isQuick ? 64 * 1024 * 1024 : 256 * 1024 * 1024
    let comments = Data(
        Array(repeating: Array(": keep-alive\n".utf8), count: chunkSize / 13 + 1).flatMap { $0 }.prefix(chunkSize)
    )
    let longLine = Data(repeating: UInt8(ascii: "x"), count: chunkSize)
    let chunks = total / chunkSize
    let limit = 8 * 1024 * 1024

    /// Feeds `chunks` copies of `chunk` (after `prefix`); returns the throughput in MB/s and the peak
    /// extra heap, in bytes.
    func feed(_ chunk: Data, after prefix: String, limit: Int) -> (megabytesPerSecond: Double, peak: Int64) {
        var parser = SSEParser(maxEventSize: limit)
        _ = try? parser.feed(Array(prefix.utf8))
        let liveBefore = alloc_counter_live_bytes()
        alloc_counter_reset_peak()
        let start = nowNanoseconds()
        var items = 0
        for _ in 0..<chunks {
            guard let fed = try? parser.feed(chunk) else { break }
            items += fed.count
        }
        let seconds = Double(nowNanoseconds() - start) / 1e9
        blackHole(items)
        return (Double(total) / 1_048_576 / seconds, alloc_counter_peak_bytes() - liveBefore)
    }

    // What copying the same bytes costs: the speed the parser is held to.
    let copyStart = nowNanoseconds()
    var sink = [UInt8](repeating: 0, count: chunkSize)
    for _ in 0..<chunks {
        comments.withUnsafeBytes { source in sink.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
    }
    blackHole(sink)
    let copySpeed = Double(total) / 1_048_576 / (Double(nowNanoseconds() - copyStart) / 1e9)

    let flood = feed(comments, after: "", limit: limit)
    // A large event at the limit, then the next, and so on: each is copied once into the event kept.
    let event = Data(("data: " + String(repeating: "x", count: limit - 16) + "\n\n").utf8)
    let eventStart = nowNanoseconds()
    let events = total / event.count
    var parser = SSEParser(maxEventSize: limit)
    var delivered = 0
    for _ in 0..<events {
        for offset in stride(from: 0, to: event.count, by: chunkSize) {
            delivered += (try? parser.feed(event[offset..<min(offset + chunkSize, event.count)]))?.count ?? 0
        }
    }
    let eventSpeed = Double(events * event.count) / 1_048_576 / (Double(nowNanoseconds() - eventStart) / 1e9)
    precondition(delivered == events)
    // A line far above the limit: refused at the limit, having kept no more than the limit.
    let refusal = feed(longLine, after: "data: ", limit: limit)
    print(String(format: "  memory copy of the same chunks:           %8.0f MB/s", copySpeed))
    print(
        String(
            format: "  comment lines (13 bytes each):            %8.0f MB/s, peak extra heap ", flood.megabytesPerSecond
        )
            + megabytes(flood.peak)
    )
    print(String(format: "  events of 8 MiB, one after another:       %8.0f MB/s", eventSpeed))
    print("  a line of \(total >> 20) MB: refused at the 8 MiB limit, peak extra heap " + megabytes(refusal.peak))
    report.figure("sse.copy_mb_per_s", copySpeed)
    report.figure("sse.comments_mb_per_s", flood.megabytesPerSecond)
    report.figure("sse.comments_peak_bytes", Double(flood.peak))
    report.figure("sse.large_events_mb_per_s", eventSpeed)
    report.figure("sse.refused_line_peak_bytes", Double(refusal.peak))
    report.target(
        "sse.comments",
        "a comment flood parses at 300 MB/s or more (issue 18 saw 20 MB/s), with under 1 MB of extra heap",
        pass: flood.megabytesPerSecond >= 300 && flood.peak < 1_048_576
    )
    report.target(
        "sse.large_events",
        "8 MiB events parse at 1 GB/s or more; a longer line is refused holding under 2× the limit",
        pass: eventSpeed >= 1_024 && refusal.peak < 2 * Int64(limit)
    )
}

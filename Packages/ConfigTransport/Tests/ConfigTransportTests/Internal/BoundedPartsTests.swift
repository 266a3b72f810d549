import Foundation
import TestSupport
import Testing

@_spi(Internal) @_spi(Testing) @testable import ConfigTransport

/// The buffer between a connection and its reader keeps no part the reader took (issue 43, item 4): a flood of
/// empty lines, parsed slower than the socket reads, used to keep every part read since the buffer last emptied.
@Suite("The bounded buffer of response parts", .timeLimit(.minutes(1)))
struct BoundedPartsTests {
    /// A body part of `size` bytes whose release is counted in `released`.
    private static func part(size: Int, released: Protected<Int>) -> HTTPResponsePart {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
        bytes.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "\n"), count: size)
        return .body(
            Data(
                bytesNoCopy: bytes, count: size,
                deallocator: .custom { pointer, _ in
                    pointer.deallocate()
                    released.withLock { $0 += 1 }
                }))
    }

    @Test("a reader that never catches up lets go of each part it took")
    func takenPartsAreReleasedWhileTheBufferNeverEmpties() async throws {
        let released = Protected(0)
        let parts = BoundedParts(capacity: 64 * 1024, onAbandoned: {})
        var reader = parts.stream.makeAsyncIterator()
        // Two parts always wait: the buffer never empties, as under a flood parsed slower than it is read.
        #expect(parts.offer(Self.part(size: 1024, released: released)) == .accepted)
        #expect(parts.offer(Self.part(size: 1024, released: released)) == .accepted)
        let rounds = 2_000
        for _ in 0..<rounds {
            #expect(parts.offer(Self.part(size: 1024, released: released)) == .accepted)
            let taken = try await reader.next()
            #expect(taken != nil)
        }
        #expect(released.current == rounds, "parts taken: \(rounds), let go of: \(released.current)")
        parts.finish()
        while try await reader.next() != nil {}
        #expect(released.current == rounds + 2)
    }
}

/// SHA-256 (FIPS 180-4) in plain Swift, for platforms without CryptoKit.
///
/// ``SHA256Digest`` uses it where CryptoKit cannot be imported; it is compiled everywhere, so that both
/// implementations can be tested against the same vectors on every platform.
enum PortableSHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Computes the 32-byte SHA-256 digest of a message.
    ///
    /// A contiguous message, such as a native `String`'s UTF-8 view or an array, is hashed in place;
    /// any other sequence is copied into an array first.
    /// - Parameter bytes: The message.
    /// - Returns: The digest, 32 bytes.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable(hash(contiguous:)) { return digest }
        return Array(bytes).withUnsafeBufferPointer(hash(contiguous:))
    }

    private static func hash(contiguous message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var compressor = Compressor()
        roundConstants.withUnsafeBufferPointer { constants in
            let wholeBlocksEnd = message.count - message.count % 64
            var blockStart = 0
            while blockStart < wholeBlocksEnd {
                compressor.compress(UnsafeBufferPointer(rebasing: message[blockStart..<blockStart + 64]), constants)
                blockStart += 64
            }

            // The padding: 0x80, zeros, then the message length in bits, big-endian, ending a block.
            var tail = [UInt8](repeating: 0, count: 128)
            let remaining = message.count - wholeBlocksEnd
            for index in 0..<remaining { tail[index] = message[wholeBlocksEnd + index] }
            tail[remaining] = 0x80
            let tailLength = remaining < 56 ? 64 : 128
            let bitLength = UInt64(message.count) &* 8
            for index in 0..<8 {
                tail[tailLength - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * index))
            }
            tail.withUnsafeBufferPointer { tail in
                compressor.compress(UnsafeBufferPointer(rebasing: tail[0..<64]), constants)
                if tailLength == 128 { compressor.compress(UnsafeBufferPointer(rebasing: tail[64..<128]), constants) }
            }
        }
        return compressor.digest
    }

    /// The running state of one hash: the eight working words and the message schedule.
    private struct Compressor {
        var h0: UInt32 = 0x6a09_e667, h1: UInt32 = 0xbb67_ae85, h2: UInt32 = 0x3c6e_f372, h3: UInt32 = 0xa54f_f53a
        var h4: UInt32 = 0x510e_527f, h5: UInt32 = 0x9b05_688c, h6: UInt32 = 0x1f83_d9ab, h7: UInt32 = 0x5be0_cd19
        var schedule = [UInt32](repeating: 0, count: 64)

        mutating func compress(_ block: UnsafeBufferPointer<UInt8>, _ constants: UnsafeBufferPointer<UInt32>) {
            var a = h0
            var b = h1
            var c = h2
            var d = h3
            var e = h4
            var f = h5
            var g = h6
            var h = h7
            schedule.withUnsafeMutableBufferPointer { w in
                for index in 0..<16 {
                    let offset = index * 4
                    w[index] =
                        UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
                        | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
                }
                for index in 16..<64 {
                    let w15 = w[index - 15]
                    let w2 = w[index - 2]
                    let sigma0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                    let sigma1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                    w[index] = w[index - 16] &+ sigma0 &+ w[index - 7] &+ sigma1
                }
                for index in 0..<64 {
                    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ w[index]
                    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temp2 = sum0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ temp1
                    d = c
                    c = b
                    b = a
                    a = temp1 &+ temp2
                }
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
            h5 &+= f
            h6 &+= g
            h7 &+= h
        }

        var digest: [UInt8] {
            var bytes = [UInt8]()
            bytes.reserveCapacity(32)
            for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
                bytes.append(UInt8(truncatingIfNeeded: word >> 24))
                bytes.append(UInt8(truncatingIfNeeded: word >> 16))
                bytes.append(UInt8(truncatingIfNeeded: word >> 8))
                bytes.append(UInt8(truncatingIfNeeded: word))
            }
            return bytes
        }
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}

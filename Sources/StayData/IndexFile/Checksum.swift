/// A fast 64-bit checksum of bytes (four independent multiply-rotate lanes, as in xxHash64), so
/// that checking a 200 MB index costs tens of milliseconds. It finds flipped bits and torn writes;
/// it is not meant to resist tampering.
package enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// The checksum of `bytes`.
    /// - Complexity: O(*n*).
    package static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        // One pass, no allocation (a journal checks a checksum per record): the same result as a Stream's.
        guard let base = bytes.baseAddress, bytes.count > 0 else { return finish(seed &+ prime3) }
        let count = bytes.count
        var lane1 = seed &+ prime1 &+ prime2, lane2 = seed &+ prime2, lane3 = seed, lane4 = seed &- prime1
        var offset = 0
        while offset + 32 <= count {
            lane1 = round(lane1, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lane2 = round(lane2, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lane3 = round(lane3, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lane4 = round(lane4, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = lane1 ^ (lane2 &* prime3) ^ (lane3 &* prime1) ^ (lane4 &* prime2) ^ UInt64(count)
        while offset + 8 <= count {
            hash = round(hash, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        while offset < count {
            hash = round(hash, UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) | 0x100)
            offset += 1
        }
        return finish(hash)
    }

    @inline(__always) fileprivate static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = lane &+ word &* prime2
        return ((mixed << 31) | (mixed >> 33)) &* prime1
    }

    /// The checksum of bytes given a piece at a time: the same as ``of(_:seed:)`` of all of them, for
    /// data too large to hold at once.
    package struct Stream {
        private var lane1, lane2, lane3, lane4: UInt64
        /// Bytes given so far, and the last of them that do not make a whole 32-byte block yet.
        private var count = 0
        private var tail: [UInt8] = []

        package init(seed: UInt64 = 0) {
            lane1 = seed &+ prime1 &+ prime2
            lane2 = seed &+ prime2
            lane3 = seed
            lane4 = seed &- prime1
        }

        /// Adds the next bytes.
        package mutating func add(_ bytes: UnsafeRawBufferPointer) {
            guard var base = bytes.baseAddress, bytes.count > 0 else { return }
            count += bytes.count
            var left = bytes.count
            if !tail.isEmpty {
                let taken = min(32 - tail.count, left)
                tail.append(contentsOf: UnsafeRawBufferPointer(start: base, count: taken))
                base += taken
                left -= taken
                guard tail.count == 32 else { return }
                tail.withUnsafeBytes { addBlocks($0.baseAddress!, 32) }
                tail.removeAll(keepingCapacity: true)
            }
            let whole = left / 32 * 32
            addBlocks(base, whole)
            tail.append(contentsOf: UnsafeRawBufferPointer(start: base + whole, count: left - whole))
        }

        /// Adds `byteCount` bytes (a multiple of 32) from `base`.
        private mutating func addBlocks(_ base: UnsafeRawPointer, _ byteCount: Int) {
            var offset = 0
            while offset + 32 <= byteCount {
                lane1 = Checksum.round(lane1, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lane2 = Checksum.round(lane2, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lane3 = Checksum.round(lane3, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lane4 = Checksum.round(lane4, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
        }

        /// The checksum of every byte added.
        package func checksum() -> UInt64 {
            guard count > 0 else { return finish(lane3 &+ prime3) }
            var hash = lane1 ^ (lane2 &* prime3) ^ (lane3 &* prime1) ^ (lane4 &* prime2) ^ UInt64(count)
            tail.withUnsafeBytes { rest in
                var offset = 0
                while offset + 8 <= rest.count {
                    hash = Checksum.round(hash, rest.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    offset += 8
                }
                while offset < rest.count {
                    hash = Checksum.round(hash, UInt64(rest.load(fromByteOffset: offset, as: UInt8.self)) | 0x100)
                    offset += 1
                }
            }
            return finish(hash)
        }
    }

    fileprivate static func finish(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }
}

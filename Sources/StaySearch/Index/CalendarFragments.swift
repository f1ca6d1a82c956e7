/// Listings' calendar nights as ``IndexBuilder`` keeps them until it builds: each listing's nights, as
/// they were added between two other listings' nights (a *fragment*; a calendar file lists a listing's
/// rows together, so usually one fragment a listing), sealed into a few bytes a night.
///
/// A fragment is its runs of nights (see ``NightRun``) with everything a run repeats from the one before
/// left out: a day or line that follows on, a stay rule that stays. A price that changes night by night
/// is one byte a night, its change from the night before in whole units with the night's availability
/// (larger changes, and prices a 16-bit code of whole units cannot hold, take a few more bytes). A year of day-by-day prices is about
/// 380 bytes instead of about 1 KB as runs and 16-bit values.
///
/// Fragments go into chunks of a few MiB; a chunk is freed once every fragment in it has been
/// read back for the last time (``release(_:)``), so that the nights shrink while the index grows.
/// Given a ``SpillStore``, each chunk goes there as soon as it is full, and fragments are read back
/// from it one at a time: the nights then take a few MiB of memory however many there are.
package struct CalendarFragments {
    /// Chunks of sealed fragments; a released or spilled chunk is empty.
    private var chunks: [[UInt8]] = []
    /// Where each chunk was spilled (-1: in memory), and its size in bytes.
    private var spilledAt: [Int] = []
    private var chunkSizes: [Int] = []
    /// Where full chunks go, or nil to keep them in memory.
    private let store: (any SpillStore)?
    /// The first error the store gave; that chunk, and those after it, stayed in memory.
    package private(set) var spillFailure: (any Error)?
    /// The buffer of the chunk spilled last, emptied, for the next chunk: a fresh one would cost a page
    /// fault every 4 KiB.
    private var spare: [UInt8] = []
    /// The line shift of each chunk's origins (a part of a file read apart learns its first line later).
    private var lineShifts: [UInt64] = []
    /// The chunk new fragments go into.
    private var current = -1
    /// Where each fragment starts (chunk above the offset), and whose it is.
    private(set) var locations: [UInt64] = []
    package private(set) var listings: [Int32] = []
    /// Scratch for sealing.
    private var scratch: [UInt8] = []

    /// The size of a chunk: small against the whole (so that freeing them frees as the build goes) and
    /// large against a fragment (a year of nights is a few hundred bytes). A larger fragment has a chunk
    /// of its own.
    let chunkSize: Int

    /// Creates an empty store with chunks of `chunkSize` bytes (4 MiB unless a test wants many).
    package init(chunkSize: Int = 1 << 22, store: (any SpillStore)? = nil) {
        self.chunkSize = chunkSize
        self.store = store
    }

    /// The number of fragments.
    package var count: Int { locations.count }

    /// The chunk a fragment is in.
    package func chunk(ofFragment fragment: Int) -> Int { Int(locations[fragment] >> 32) }

    /// The number of chunks.
    package var chunkCount: Int { chunks.count }

    /// Seals the nights of one listing.
    /// - Parameters:
    ///   - runs: its runs in the order added; those with night values refer to `values`.
    package mutating func append(listing: Int32, runs: [NightRun], values: NightValues) {
        scratch.removeAll(keepingCapacity: true)
        encode(runs, values: values, into: &scratch)
        if current < 0 || chunks[current].count + scratch.count > chunkSize {
            spillCurrent()
            var chunk: [UInt8] = []
            swap(&chunk, &spare)            // the chunk spilled last, its pages already in memory
            chunk.reserveCapacity(max(chunkSize, scratch.count))
            chunks.append(chunk)
            spilledAt.append(-1)
            chunkSizes.append(0)
            lineShifts.append(0)
            current = chunks.count - 1
        }
        locations.append(UInt64(current) << 32 | UInt64(chunks[current].count))
        listings.append(listing)
        chunks[current].append(contentsOf: scratch)
        chunkSizes[current] = chunks[current].count
    }

    /// Moves the chunk being filled to the store, if there is one (and it has not failed); no fragment
    /// goes into it afterwards.
    mutating func spillCurrent() {
        guard current >= 0 else { return }
        defer { current = -1 }
        guard let store, spillFailure == nil, !chunks[current].isEmpty else { return }
        do {
            spilledAt[current] = try chunks[current].withUnsafeBytes { try store.append($0) }
            swap(&spare, &chunks[current])
            spare.removeAll(keepingCapacity: true)
        } catch {
            spillFailure = error
        }
    }

    /// Moves `other`'s fragments after these, their lines shifted by `lineShift`.
    package mutating func append(_ other: CalendarFragments, shiftingLinesBy lineShift: UInt64) {
        spillCurrent()
        var other = other
        other.spillCurrent()
        if spillFailure == nil { spillFailure = other.spillFailure }
        let chunkShift = UInt64(chunks.count) << 32
        chunks.append(contentsOf: other.chunks)
        spilledAt.append(contentsOf: other.spilledAt)
        chunkSizes.append(contentsOf: other.chunkSizes)
        lineShifts.append(contentsOf: other.lineShifts.map { $0 &+ lineShift })
        locations.append(contentsOf: other.locations.map { $0 &+ chunkShift })
        listings.append(contentsOf: other.listings)
    }

    /// Frees a chunk whose fragments will not be read again.
    package mutating func release(_ chunk: Int) {
        chunks[chunk] = []
        if let store, spilledAt[chunk] >= 0 { store.discard(offset: spilledAt[chunk], byteCount: chunkSizes[chunk]) }
        if chunk == current { current = -1 }
    }

    /// Appends fragment `fragment`'s runs to `runs` and their night values to `values`, as they were
    /// added (origins shifted as appended), each run of `listing`.
    /// - Parameter buffer: room for a fragment read back from the store, reused from call to call.
    /// - Throws: the store's error when the fragment cannot be read back.
    package func decode(_ fragment: Int, into runs: inout [NightRun], values: inout NightValues, buffer: inout [UInt8]) throws {
        let location = locations[fragment]
        let chunk = Int(location >> 32)
        let start = Int(location & 0xFFFF_FFFF)
        guard let store, spilledAt[chunk] >= 0 else {
            chunks[chunk].withUnsafeBufferPointer { decode(fragment, from: $0, at: start, into: &runs, values: &values) }
            return
        }
        let next = fragment + 1
        let end = next < locations.count && Int(locations[next] >> 32) == chunk ? Int(locations[next] & 0xFFFF_FFFF) : chunkSizes[chunk]
        if buffer.count < end - start { buffer = [UInt8](repeating: 0, count: max(end - start, 2 * buffer.count)) }
        try buffer.withUnsafeMutableBytes { try store.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(end - start)]), at: spilledAt[chunk] + start) }
        buffer.withUnsafeBufferPointer { decode(fragment, from: $0, at: 0, into: &runs, values: &values) }
    }

    /// Decodes fragment `fragment` from `bytes`, where it starts at `position`.
    private func decode(_ fragment: Int, from bytes: UnsafeBufferPointer<UInt8>, at position: Int, into runs: inout [NightRun],
                        values: inout NightValues) {
        let chunk = Int(locations[fragment] >> 32)
        let listing = listings[fragment]
        let shift = lineShifts[chunk]
        do {
            var reader = ByteReader(bytes: bytes, position: position)
            let runCount = Int(reader.varint())
            var day: Int32 = 0
            var origin: UInt64 = 0
            var minimum: Int32 = -1
            var maximum: Int32 = -1
            var code: UInt16 = 0
            for _ in 0..<runCount {
                let flags = reader.byte()
                if flags & Flag.newDay != 0 { day &+= Int32(truncatingIfNeeded: Self.unzigzag(reader.varint())) }
                if flags & Flag.newOrigin != 0 { origin &+= UInt64(bitPattern: Self.unzigzag(reader.varint())) }
                let count = UInt16(truncatingIfNeeded: reader.varint())
                if flags & Flag.newMinimum != 0 { minimum = Int32(truncatingIfNeeded: Self.unzigzag(reader.varint())) }
                if flags & Flag.newMaximum != 0 { maximum = Int32(truncatingIfNeeded: Self.unzigzag(reader.varint())) }
                var run = NightRun(origin: origin &+ shift, listing: listing, day: day, price: -1, minimum: minimum,
                                   maximum: maximum, isAvailable: flags & Flag.available != 0, hasNightValues: false, count: count)
                if flags & Flag.nightValues != 0 {
                    run.hasNightValues = true
                    run.price = Int32(bitPattern: UInt32(values.count))
                    for _ in 0..<Int(count) {
                        let byte = reader.byte()
                        if byte >> 1 == Self.escape {
                            code = UInt16(truncatingIfNeeded: reader.varint())
                            if code == NightValues.elsewhere {
                                values.append(code: code, isAvailable: byte & 1 != 0,
                                              exactPrice: Int32(truncatingIfNeeded: Self.unzigzag(reader.varint())))
                                continue
                            }
                        } else {
                            code &+= UInt16(truncatingIfNeeded: Self.unzigzag(UInt64(byte >> 1)))
                        }
                        values.append(code: code, isAvailable: byte & 1 != 0)
                    }
                } else {
                    run.price = Int32(truncatingIfNeeded: Self.unzigzag(reader.varint()))
                }
                runs.append(run)
                day &+= Int32(count)
                origin &+= UInt64(count)
            }
        }
    }

    private enum Flag {
        static let nightValues: UInt8 = 1
        static let available: UInt8 = 2
        static let newDay: UInt8 = 4
        static let newOrigin: UInt8 = 8
        static let newMinimum: UInt8 = 16
        static let newMaximum: UInt8 = 32
    }

    /// The night code that says a full code follows (a change of more than 63 units), and for a price
    /// a code cannot hold, the price.
    private static let escape: UInt8 = 127

    private func encode(_ runs: [NightRun], values: NightValues, into bytes: inout [UInt8]) {
        Self.appendVarint(UInt64(runs.count), to: &bytes)
        var day: Int32 = 0
        var origin: UInt64 = 0
        var minimum: Int32 = -1
        var maximum: Int32 = -1
        var code: UInt16 = 0
        for run in runs {
            var flags: UInt8 = 0
            if run.hasNightValues { flags |= Flag.nightValues }
            if run.isAvailable { flags |= Flag.available }
            if run.day != day { flags |= Flag.newDay }
            if run.origin != origin { flags |= Flag.newOrigin }
            if run.minimum != minimum { flags |= Flag.newMinimum }
            if run.maximum != maximum { flags |= Flag.newMaximum }
            bytes.append(flags)
            if run.day != day { Self.appendVarint(Self.zigzag(Int64(run.day) - Int64(day)), to: &bytes) }
            if run.origin != origin { Self.appendVarint(Self.zigzag(Int64(bitPattern: run.origin &- origin)), to: &bytes) }
            Self.appendVarint(UInt64(run.count), to: &bytes)
            if run.minimum != minimum { Self.appendVarint(Self.zigzag(Int64(run.minimum)), to: &bytes) }
            if run.maximum != maximum { Self.appendVarint(Self.zigzag(Int64(run.maximum)), to: &bytes) }
            if run.hasNightValues {
                let start = run.nightValuesStart
                values.codes.withUnsafeBufferPointer { codes in
                    for position in start..<(start + Int(run.count)) {
                        let next = codes[position]
                        let available = UInt8(truncatingIfNeeded: values.availability[position >> 6] >> UInt64(position & 63) & 1)
                        let change = Int16(bitPattern: next &- code)
                        if change >= -63, change <= 63, next != NightValues.elsewhere {
                            bytes.append(UInt8(truncatingIfNeeded: Self.zigzag(Int64(change))) << 1 | available)
                        } else {
                            bytes.append(Self.escape << 1 | available)
                            Self.appendVarint(UInt64(next), to: &bytes)
                            if next == NightValues.elsewhere {
                                Self.appendVarint(Self.zigzag(Int64(values.exactPrices[position])), to: &bytes)
                            }
                        }
                        code = next
                    }
                }
            } else {
                Self.appendVarint(Self.zigzag(Int64(run.price)), to: &bytes)
            }
            day = run.day &+ Int32(run.count)
            origin = run.origin &+ UInt64(run.count)
            minimum = run.minimum
            maximum = run.maximum
        }
    }

    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: value << 1 ^ value >> 63) }

    private static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}

/// Reads bytes and varints from a buffer the reader trusts (written by ``CalendarFragments``).
private struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}

/// Many strings stored as one UTF-8 byte column and an offsets column, so that a million names
/// cost two allocations and can be saved and mapped as they are.
package struct StringColumn: Sendable {
    /// The UTF-8 bytes of every string, one after the other.
    package let bytes: Column<UInt8>
    /// `count + 1` offsets into `bytes`: string *i* is `bytes[offsets[i] ..< offsets[i + 1]]`.
    package let offsets: Column<UInt32>

    /// Makes a column of `strings`.
    package init(_ strings: [String]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count })
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(strings.count + 1)
        for string in strings {
            bytes.append(contentsOf: string.utf8)
            offsets.append(UInt32(bytes.count))
        }
        self.init(bytes: Column(bytes), offsets: Column(offsets))
    }

    /// Wraps existing columns; the caller has checked that the offsets rise and end at `bytes.count`.
    package init(bytes: Column<UInt8>, offsets: Column<UInt32>) {
        self.bytes = bytes
        self.offsets = offsets
    }

    /// The number of strings.
    package var count: Int { offsets.count - 1 }

    /// The string at `index`.
    package subscript(index: Int) -> String {
        let start = Int(offsets[index])
        let end = Int(offsets[index + 1])
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }
}

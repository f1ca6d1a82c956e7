#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a short field seen last (up to 32), to tell cheaply whether the next record repeats it.
struct RecentField {
    private var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = -1

    /// Whether `field` has exactly the remembered bytes; never true before ``remember(_:)`` or for a
    /// field longer than 32 bytes.
    func matches(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count == count, let source = field.baseAddress else { return false }
        return withUnsafeBytes(of: bytes) { memcmp($0.baseAddress!, source, count) == 0 }
    }

    /// Remembers `field` (a field longer than 32 bytes is forgotten instead).
    mutating func remember(_ field: UnsafeBufferPointer<UInt8>) {
        guard field.count <= 32, let source = field.baseAddress else {
            count = -1
            return
        }
        count = field.count
        withUnsafeMutableBytes(of: &bytes) { $0.baseAddress!.copyMemory(from: source, byteCount: field.count) }
    }
}

import StaySearch

/// A ``CalendarChange`` as the journal stores it: 25 bytes, little-endian — the kind (1 byte), the listing
/// id (8), the first and end nights as days since 1970-01-01 (4 + 4), and one more value (4 + 4 reserved):
/// a booking's guests (−1 when not given) or an availability's 0/1.
enum ChangeRecord {
    static let size = 25

    static func encode(_ change: CalendarChange) -> [UInt8] {
        let kind: UInt8
        let extra: Int32
        switch change {
        case let .book(_, _, _, guests): kind = 1; extra = Int32(clamping: guests ?? -1)
        case .cancel: kind = 2; extra = 0
        case let .availability(_, _, _, available): kind = 3; extra = available ? 1 : 0
        }
        let (from, to) = change.nights
        return [kind] + littleEndianBytes(change.id) + littleEndianBytes(from.daysSinceEpoch) + littleEndianBytes(to.daysSinceEpoch)
            + littleEndianBytes(extra) + littleEndianBytes(Int32(0))
    }

    /// The change in `bytes`, or nil when they are not one.
    static func decode(_ bytes: ArraySlice<UInt8>) -> CalendarChange? {
        guard bytes.count == size else { return nil }
        func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        let kind: UInt8 = load(UInt8.self, at: 0)
        let id = load(Int64.self, at: 1)
        let from = Day(daysSinceEpoch: load(Int32.self, at: 9))
        let to = Day(daysSinceEpoch: load(Int32.self, at: 13))
        let extra = load(Int32.self, at: 17)
        switch kind {
        case 1: return .book(id: id, checkIn: from, checkOut: to, guests: extra < 0 ? nil : Int(extra))
        case 2: return .cancel(id: id, checkIn: from, checkOut: to)
        case 3 where extra == 0 || extra == 1: return .availability(id: id, from: from, to: to, available: extra == 1)
        default: return nil
        }
    }
}

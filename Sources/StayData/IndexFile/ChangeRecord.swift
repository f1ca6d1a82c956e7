import StaySearch

/// A ``CalendarChange`` as the journal stores it, little-endian.
///
/// Calendar changes and `remove` take 25 bytes: the kind (1 byte), the listing id (8), the first and end
/// nights as days since 1970-01-01 (4 + 4), and 8 bytes more: a booking's guests (`Int32`, −1 when not
/// given), an availability's 0/1, a price in minor units (`Int64`, −1 for none), or a stay rule's minimum
/// and maximum (`Int32` each, −1 to keep). A `listing` change is the kind, the id, a `UInt32` of the fields
/// it sets, a `UInt32` of those it clears, then each set field in turn (strings as a `UInt32` length and
/// UTF-8, numbers as 4 or 8 bytes, doubles by their bits, flags as a byte; the fees are bits 21–26). A `days` change is kind 11, the
/// id, the first day (`Int32`), the day count (`UInt32`), then each day's price (`Int64`, up to ``Money/largest``), each
/// day's packed stay rule (`UInt32`), and each day's open flag (a byte); kind 10, read from journals of before wide
/// prices, has 32-bit prices.
package enum ChangeRecord {
    /// The size of every record but a `listing` change's.
    static let size = 25
    /// The fewest bytes a record takes: a `listing` change that sets no field.
    static let smallestSize = 17
    /// The most bytes a `listing` or `days` change may take.
    static let largestSize = 1 << 20

    package static func encode(_ change: CalendarChange) -> [UInt8] {
        let kind: UInt8
        var extra: [UInt8]
        switch change {
        case let .book(_, _, _, guests): kind = 1; extra = littleEndianBytes(Int32(clamping: guests ?? -1)) + littleEndianBytes(Int32(0))
        case .cancel: kind = 2; extra = littleEndianBytes(Int64(0))
        case let .availability(_, _, _, available): kind = 3; extra = littleEndianBytes(Int32(available ? 1 : 0)) + littleEndianBytes(Int32(0))
        case let .price(_, _, _, price): kind = 4; extra = littleEndianBytes(price?.minorUnits ?? -1)
        case let .rules(_, _, _, minimum, maximum): kind = 5; extra = littleEndianBytes(minimum ?? -1) + littleEndianBytes(maximum ?? -1)
        case .remove: kind = 7; extra = littleEndianBytes(Int64(0))
        case .listing(let fields): return [6] + littleEndianBytes(change.id) + ListingFieldsCoding.encode(fields)
        case .days(let set):
            var bytes: [UInt8] = [11] + littleEndianBytes(set.id) + littleEndianBytes(set.from.daysSinceEpoch) + littleEndianBytes(UInt32(set.prices.count))
            bytes.reserveCapacity(bytes.count + 13 * set.prices.count)
            for price in set.prices { bytes += littleEndianBytes(price) }
            for rule in set.rules { bytes += littleEndianBytes(rule) }
            for open in set.open { bytes.append(open ? 1 : 0) }
            return bytes
        }
        let (from, to) = change.nights ?? (Day(daysSinceEpoch: 0), Day(daysSinceEpoch: 0))
        return [kind] + littleEndianBytes(change.id) + littleEndianBytes(from.daysSinceEpoch) + littleEndianBytes(to.daysSinceEpoch) + extra
    }

    /// A position record of a followed change log: kind 8, the position, the log's today at that position
    /// (days since 1970 + 1 as a `UInt32`; 0: none announced yet), 12 zero bytes.
    static func encodePosition(_ position: UInt64, today: Day?) -> [UInt8] {
        let day = today.map { UInt32(bitPattern: $0.daysSinceEpoch &+ 1) } ?? 0
        return [8] + littleEndianBytes(position) + littleEndianBytes(day) + [UInt8](repeating: 0, count: 12)
    }

    /// The position and today in `bytes`, when they are a position record.
    static func decodePosition(_ bytes: ArraySlice<UInt8>) -> (position: UInt64, today: Day?)? {
        guard bytes.count == size, bytes.first == 8 else { return nil }
        return bytes.withUnsafeBytes { raw in
            let day = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 9, as: UInt32.self))
            return (UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self)),
                    day == 0 ? nil : Day(daysSinceEpoch: Int32(bitPattern: day) &- 1))
        }
    }

    /// A record of a window that rolled: kind 9, the day the calendars now end before (days since 1970, an
    /// `Int32`), 16 zero bytes. The changes after it may touch the days it added.
    static func encodeExtension(until: Day) -> [UInt8] {
        [9] + littleEndianBytes(until.daysSinceEpoch) + [UInt8](repeating: 0, count: 20)
    }

    /// The day in `bytes`, when they are an extension record.
    static func decodeExtension(_ bytes: ArraySlice<UInt8>) -> Day? {
        guard bytes.count == size, bytes.first == 9 else { return nil }
        return bytes.withUnsafeBytes { Day(daysSinceEpoch: Int32(littleEndian: $0.loadUnaligned(fromByteOffset: 1, as: Int32.self))) }
    }

    /// Whether a record of `length` bytes, whose first byte is `kind` (when there is one), can be one
    /// (checked before its bytes are read): only a `listing` change is longer than ``size``.
    package static func isPlausible(length: Int, kind: UInt8?) -> Bool {
        kind == nil || kind == 6 || kind == 10 || kind == 11 ? length >= smallestSize && length <= largestSize : length == size
    }

    /// The change in `bytes`, or nil when they are not one.
    package static func decode(_ bytes: ArraySlice<UInt8>) -> CalendarChange? {
        guard bytes.count >= smallestSize else { return nil }
        if let kind = bytes.first, kind == 10 || kind == 11 {
            let priceSize = kind == 11 ? 8 : 4
            var reader = ByteReader(bytes)
            guard reader.integer(UInt8.self) == kind, let id = reader.integer(Int64.self), let from = reader.integer(Int32.self),
                  let count = reader.integer(UInt32.self), reader.remaining == (priceSize + 5) * Int(count) else { return nil }
            var prices: [Int64] = [], rules: [UInt32] = [], open: [Bool] = []
            for _ in 0..<count { prices.append(kind == 11 ? reader.integer(Int64.self)! : Int64(reader.integer(Int32.self)!)) }
            for _ in 0..<count { rules.append(reader.integer(UInt32.self)!) }
            for _ in 0..<count { open.append(reader.integer(UInt8.self)! == 1) }
            return .days(ListingDays(id: id, from: Day(daysSinceEpoch: from), prices: prices, open: open, rules: rules))
        }
        guard bytes.count == size, bytes.first != 6 else {      // a `listing` change may be 25 bytes too
            var reader = ByteReader(bytes)
            guard reader.integer(UInt8.self) == 6, let id = reader.integer(Int64.self),
                  let fields = ListingFieldsCoding.decode(id: id, from: &reader), reader.isAtEnd else { return nil }
            return .listing(fields)
        }
        // A fixed-size record, the journal's common case: its fields read in place.
        let (kind, id, fromDays, toDays, first, second) = bytes.withUnsafeBytes { raw in
            (raw[0], Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: Int64.self)),
             Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 9, as: Int32.self)),
             Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 13, as: Int32.self)),
             Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 17, as: Int32.self)),
             Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 21, as: Int32.self)))
        }
        let from = Day(daysSinceEpoch: fromDays), to = Day(daysSinceEpoch: toDays)
        let wide = Int64(bitPattern: UInt64(UInt32(bitPattern: first)) | UInt64(UInt32(bitPattern: second)) << 32)
        switch kind {
        case 1: return .book(id: id, checkIn: from, checkOut: to, guests: first < 0 ? nil : Int(first))
        case 2: return .cancel(id: id, checkIn: from, checkOut: to)
        case 3 where first == 0 || first == 1: return .availability(id: id, from: from, to: to, available: first == 1)
        case 4 where wide >= -1: return .price(id: id, from: from, to: to, price: wide < 0 ? nil : Money(minorUnits: wide))
        case 5: return .rules(id: id, from: from, to: to, minimumNights: first < 0 ? nil : first, maximumNights: second < 0 ? nil : second)
        case 7: return .remove(id: id)
        default: return nil
        }
    }
}

/// The fields of a ``ListingChange`` in a journal record (see ``ChangeRecord``).
enum ListingFieldsCoding {
    static func encode(_ change: ListingChange) -> [UInt8] {
        var set: UInt32 = 0, cleared: UInt32 = 0
        var body: [UInt8] = []
        func text(_ bit: Int, _ value: String?) {
            guard let value else { return }
            set |= 1 << bit
            let bytes = Array(value.utf8)
            body += littleEndianBytes(UInt32(bytes.count)) + bytes
        }
        func number<T: FixedWidthInteger>(_ bit: Int, _ value: T??) {
            guard let value else { return }
            set |= 1 << bit
            if let value { body += littleEndianBytes(value) } else { cleared |= 1 << bit }
        }
        func real(_ bit: Int, _ value: Double?) { number(bit, value.map { Optional($0.bitPattern) }) }
        func flag(_ bit: Int, _ value: Bool?) { number(bit, value.map { Optional(UInt8($0 ? 1 : 0)) }) }
        text(0, change.name)
        text(1, change.city)
        text(2, change.neighbourhoodGroup)
        text(3, change.neighbourhood)
        text(4, change.roomType)
        number(5, change.accommodates.map { Optional(Int64($0)) })
        number(6, change.price.map { $0.map(\.minorUnits) })
        number(7, change.minimumNights.map { Optional($0) })
        number(8, change.maximumNights.map { Optional($0) })
        number(9, change.ratingHundredths)
        number(10, change.reviewCount.map { Optional($0) })
        real(11, change.latitude)
        real(12, change.longitude)
        number(13, change.bedrooms.map { $0.map(Int64.init) })
        number(14, change.beds.map { $0.map(Int64.init) })
        number(15, change.bathroomHalves.map { $0.map(Int64.init) })
        text(16, change.propertyType)
        if let amenities = change.amenities {
            set |= 1 << 17
            body += littleEndianBytes(UInt32(amenities.count))
            for name in amenities {
                let bytes = Array(name.utf8)
                body += littleEndianBytes(UInt32(bytes.count)) + bytes
            }
        }
        flag(18, change.isInstantBookable)
        flag(19, change.isSuperhost)
        number(20, change.recentReviewCount.map { Optional($0) })
        number(21, change.cleaningFee.map { $0.map(\.minorUnits) })
        number(22, change.guestsIncluded.map { Optional(Int64($0)) })
        number(23, change.extraGuestFee.map { $0.map(\.minorUnits) })
        number(24, change.weeklyDiscountBasisPoints.map { Optional(Int64($0)) })
        number(25, change.monthlyDiscountBasisPoints.map { Optional(Int64($0)) })
        number(26, change.securityDeposit.map { $0.map(\.minorUnits) })
        return littleEndianBytes(set) + littleEndianBytes(cleared) + body
    }

    static func decode(id: Int64, from reader: inout ByteReader) -> ListingChange? {
        guard let set = reader.integer(UInt32.self), let cleared = reader.integer(UInt32.self), set >> 27 == 0, cleared & ~set == 0 else {
            return nil
        }
        var change = ListingChange(id: id)
        var failed = false
        func has(_ bit: Int) -> Bool { set >> bit & 1 == 1 }
        func text(_ bit: Int) -> String? {
            guard has(bit) else { return nil }
            guard let value = reader.string() else { failed = true; return nil }
            return value
        }
        func number<T: FixedWidthInteger>(_ bit: Int, _ type: T.Type) -> T?? {
            guard has(bit) else { return nil }
            if cleared >> bit & 1 == 1 { return .some(nil) }
            guard let value = reader.integer(T.self) else { failed = true; return nil }
            return .some(value)
        }
        change.name = text(0)
        change.city = text(1)
        change.neighbourhoodGroup = text(2)
        change.neighbourhood = text(3)
        change.roomType = text(4)
        change.accommodates = number(5, Int64.self).map { $0.map { Int(clamping: $0) } ?? 0 }
        change.price = number(6, Int64.self).map { $0.map { Money(minorUnits: $0) } }
        change.minimumNights = number(7, Int32.self) ?? nil
        change.maximumNights = number(8, Int32.self) ?? nil
        change.ratingHundredths = number(9, Int32.self)
        change.reviewCount = number(10, Int32.self) ?? nil
        change.latitude = (number(11, UInt64.self) ?? nil).map(Double.init(bitPattern:))
        change.longitude = (number(12, UInt64.self) ?? nil).map(Double.init(bitPattern:))
        change.bedrooms = number(13, Int64.self).map { $0.map { Int(clamping: $0) } }
        change.beds = number(14, Int64.self).map { $0.map { Int(clamping: $0) } }
        change.bathroomHalves = number(15, Int64.self).map { $0.map { Int(clamping: $0) } }
        change.propertyType = text(16)
        if has(17) {
            guard let count = reader.integer(UInt32.self), Int(count) <= reader.remaining else { return nil }
            var names: [String] = []
            for _ in 0..<count {
                guard let name = reader.string() else { return nil }
                names.append(name)
            }
            change.amenities = names
        }
        change.isInstantBookable = (number(18, UInt8.self) ?? nil).map { $0 != 0 }
        change.isSuperhost = (number(19, UInt8.self) ?? nil).map { $0 != 0 }
        change.recentReviewCount = number(20, Int32.self) ?? nil
        change.cleaningFee = number(21, Int64.self).map { $0.map { Money(minorUnits: $0) } }
        change.guestsIncluded = (number(22, Int64.self) ?? nil).map { Int(clamping: $0) }
        change.extraGuestFee = number(23, Int64.self).map { $0.map { Money(minorUnits: $0) } }
        change.weeklyDiscountBasisPoints = (number(24, Int64.self) ?? nil).map { Int(clamping: $0) }
        change.monthlyDiscountBasisPoints = (number(25, Int64.self) ?? nil).map { Int(clamping: $0) }
        change.securityDeposit = number(26, Int64.self).map { $0.map { Money(minorUnits: $0) } }
        return failed ? nil : change
    }
}

/// Reads little-endian values from bytes, failing (nil) past their end.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }
    var isAtEnd: Bool { position == bytes.endIndex }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        let value = bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: position - bytes.startIndex, as: T.self)) }
        position += size
        return value
    }

    mutating func string() -> String? {
        guard let length = integer(UInt32.self), Int(length) <= remaining else { return nil }
        let text = String(validating: bytes[position..<(position + Int(length))], as: UTF8.self)
        position += Int(length)
        return text
    }
}

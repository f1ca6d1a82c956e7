import StaySearch

/// Reads a city folder's `fees.csv` (docs/data-and-import.md, "Fees"): a header naming `listing_id` and
/// any of `cleaning_fee`, `guests_included`, `extra_guest_fee`, `weekly_discount`, `monthly_discount`
/// (discounts as percentages, `12.5%`), then one listing a row. A row's fees replace those of the
/// listing's own columns (its security deposit stays).
enum FeesFile {
    /// The file's name in a data folder.
    static let name = "fees.csv"

    /// One row: the fees it gives and its line.
    struct Row {
        var fees: ListingFees
        var line: Int
    }

    /// The rows of the file at `path` by listing id; and for each value that does not parse, its line and
    /// why (the row's other fees stand).
    /// - Throws: ``DataError`` when the file cannot be read or has no `listing_id` column.
    static func read(path: String) throws(DataError) -> (rows: [Int64: Row], problems: [(line: Int, detail: String)]) {
        let reader = CSVReader(source: try openByteSource(path: path))
        var header: CSVHeader?
        var rows: [Int64: Row] = [:]
        var problems: [(line: Int, detail: String)] = []
        var failure: DataError?
        var positions: [String: Int] = [:]
        do {
            try reader.forEachRecord { record in
                let line = record.line
                guard header != nil else {
                    let read = CSVHeader(record: record)
                    guard let id = read.position(of: "listing_id") else {
                        failure = .malformedFile(path: path, reason: "has no column named listing_id "
                            + "(its header: listing_id,cleaning_fee,guests_included,extra_guest_fee,weekly_discount,monthly_discount)")
                        throw failure!
                    }
                    header = read
                    positions["listing_id"] = id
                    for name in ["cleaning_fee", "guests_included", "extra_guest_fee", "weekly_discount", "monthly_discount"] {
                        positions[name] = read.position(of: name)
                    }
                    return
                }
                func field(_ name: String) -> UnsafeBufferPointer<UInt8> {
                    guard let position = positions[name], position < record.count else { return UnsafeBufferPointer(start: nil, count: 0) }
                    return record.bytes(at: position)
                }
                if record.count <= 1, field("listing_id").isEmpty { return }          // a blank line
                if let flaw = record.flaw {
                    problems.append((line, "\(flaw.message); row left out"))
                    return
                }
                guard let id = FieldParsing.int64(field("listing_id")), id >= 0 else {
                    problems.append((line, "listing_id '\(FieldParsing.excerpt(field("listing_id")))' is not a listing id; row left out"))
                    return
                }
                if let first = rows[id] {
                    problems.append((line, "listing \(id) already has fees at line \(first.line); row left out"))
                    return
                }
                var fees = ListingFees()
                func amount(_ name: String, largest: Money) -> Money? {
                    let bytes = field(name)
                    guard !bytes.isEmpty else { return nil }
                    guard let value = Money(parsingASCII: bytes), value <= largest else {
                        problems.append((line, "listing \(id): \(name) '\(FieldParsing.excerpt(bytes))' is not an amount such as $70.00 "
                            + "(up to \(largest.formatted())); loaded without it"))
                        return nil
                    }
                    return value
                }
                fees.cleaningFee = amount("cleaning_fee", largest: ListingFees.largestAmount)
                fees.extraGuestFee = amount("extra_guest_fee", largest: ListingFees.largestExtraGuestFee)
                let included = field("guests_included")
                if !included.isEmpty {
                    if let count = FieldParsing.count(included) {
                        fees.guestsIncluded = max(1, min(Int(count), ListingFees.largestGuestsIncluded))
                    } else {
                        problems.append((line, "listing \(id): guests_included '\(FieldParsing.excerpt(included))' is not a count; loaded as 1"))
                    }
                }
                for name in ["weekly_discount", "monthly_discount"] {
                    let bytes = field(name)
                    guard !bytes.isEmpty else { continue }
                    guard let basisPoints = percentBasisPoints(bytes), basisPoints <= ListingFees.largestDiscount else {
                        problems.append((line, "listing \(id): \(name) '\(FieldParsing.excerpt(bytes))' is not a percentage from 0 to 99 "
                            + "such as 12.5%; loaded without it"))
                        continue
                    }
                    if name == "weekly_discount" { fees.weeklyDiscountBasisPoints = basisPoints } else { fees.monthlyDiscountBasisPoints = basisPoints }
                }
                rows[id] = Row(fees: fees, line: line)
            }
        } catch let error as DataError {
            throw failure ?? error
        } catch {
            throw failure ?? .malformedFile(path: path, reason: "cannot be read")
        }
        if header == nil { throw .emptyFile(path: path) }
        return (rows, problems)
    }

    /// A percentage such as `12.5%` or `12.5` in basis points (1,250), rounded half up to one; nil otherwise.
    static func percentBasisPoints(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = bytes.count
        while count > 0, bytes[count - 1] == UInt8(ascii: " ") { count -= 1 }
        if count > 0, bytes[count - 1] == UInt8(ascii: "%") { count -= 1 }
        guard count > 0, let hundredths = FieldParsing.hundredths(UnsafeBufferPointer(rebasing: bytes[0..<count])) else { return nil }
        return Int(hundredths)
    }
}

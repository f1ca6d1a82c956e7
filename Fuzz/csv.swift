// Fuzz target: the CSV reader and the Inside Airbnb loader, built into the StayData module by
// scripts/fuzz.sh. Any input must parse the same in tiny chunks as in one piece, and load (or be
// rejected record by record) without crashing; whatever loads must answer queries.
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

final class FuzzBytes: ByteSource {
    let bytes: [UInt8]
    let piece: Int
    var bytesConsumed = 0

    init(_ bytes: [UInt8], piece: Int) {
        self.bytes = bytes
        self.piece = piece
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        let count = min(piece, buffer.count, bytes.count - bytesConsumed)
        if count > 0 { bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + bytesConsumed, byteCount: count) } }
        bytesConsumed += count
        return count
    }
}

func records(_ bytes: UnsafeBufferPointer<UInt8>, chunk: Int, piece: Int) -> [[String]] {
    var result: [[String]] = []
    try! CSVReader(source: FuzzBytes(Array(bytes), piece: piece), chunkSize: chunk).forEachRecord { record in
        result.append((0..<record.count).map { record.string(at: $0) } + ["@\(record.line)", record.malformation ?? ""])
    }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard records(bytes, chunk: 64, piece: 7) == records(bytes, chunk: 1 << 16, piece: 1 << 16) else {
        fatalError("chunked parsing differs")
    }
    // First byte: where the listings end and the calendar starts.
    guard size > 1 else { return 0 }
    let split = 1 + Int(data[0]) * (size - 1) / 255
    let listings = "id,name,neighbourhood_cleansed,neighbourhood_group_cleansed,room_type,accommodates,price,minimum_nights,maximum_nights,review_scores_rating,number_of_reviews,latitude,longitude\n"
    let calendar = "listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights\n"
    func source(_ header: String, _ part: UnsafeBufferPointer<UInt8>) -> () throws(DataError) -> any ByteSource {
        let joined = Array(header.utf8) + Array(part)
        return { () throws(DataError) in FuzzBytes(joined, piece: 1 << 20) }
    }
    let city = InsideAirbnbLoader.CitySources(
        city: "Fuzz", listingsName: "listings.csv", listings: source(listings, UnsafeBufferPointer(rebasing: bytes[1..<split])),
        calendarName: "calendar.csv", calendar: source(calendar, UnsafeBufferPointer(rebasing: bytes[split...])))
    var loader = InsideAirbnbLoader()
    loader.chunkSize = 4_096
    guard let (index, report) = try? loader.loadIndex(from: [city]) else { return 0 }
    for file in report.files where file.loaded + file.rejected != file.recordsRead { fatalError("records unaccounted for") }
    for node in index.regions.nodes.prefix(3) {
        _ = try? index.search(SearchQuery(region: node.name, sort: .rating))
    }
    if index.dayCount > 0 {
        _ = try? index.search(SearchQuery(checkIn: index.firstDay, checkOut: index.firstDay.advanced(by: min(3, index.dayCount)), adults: 1))
    }
    return 0
}

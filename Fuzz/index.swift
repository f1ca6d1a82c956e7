// Fuzz target: the index file loader, built into the StayData module by scripts/fuzz.sh. Inputs
// that look like an index get their checksums made right again before loading, so that mutations
// reach the structural checks; whatever loads must answer queries without crashing.
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

let indexPath = "/tmp/staysearch-fuzz-index-\(getpid()).ssx"

/// Recomputes section and header checksums where the section table can be read.
func resealed(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    let header = IndexFileFormat.headerSize
    guard bytes.count >= header, Array(bytes[0..<8]) == IndexFileFormat.magic else { return bytes }
    func load<T: FixedWidthInteger>(_ offset: Int) -> T { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) } }
    func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { for (index, byte) in $0.enumerated() { bytes[offset + index] = byte } }
    }
    store(UInt64(bytes.count), at: 16)
    let sections = Int(load(40) as UInt32)
    let tableEnd = header + sections * IndexFileFormat.sectionEntrySize
    guard sections < 100, tableEnd <= bytes.count else { return bytes }
    for entry in 0..<sections {
        let base = header + entry * IndexFileFormat.sectionEntrySize
        let size = Int(load(base + 4) as UInt32)
        let offset = Int(truncatingIfNeeded: load(base + 8) as UInt64)
        let count = Int(truncatingIfNeeded: load(base + 16) as UInt64)
        guard size > 0, size <= 8, offset >= 0, count >= 0, count < bytes.count, offset <= bytes.count, count * size <= bytes.count - offset else { continue }
        let checksum = bytes.withUnsafeBytes { Checksum.of(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count * size)])) }
        store(checksum, at: base + 24)
    }
    let sum = IndexFileFormat.headerChecksum(header: Array(bytes[0..<header]), table: Array(bytes[header..<tableEnd]))
    store(sum, at: 56)
    return bytes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndex(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = resealed(Array(UnsafeBufferPointer(start: data, count: size)))
    let file = fopen(indexPath, "w")!
    fwrite(bytes, 1, bytes.count, file)
    fclose(file)
    guard let index = try? IndexFileReader.load(from: indexPath) else { return 0 }
    _ = try? index.search(SearchQuery(limit: 5))
    for node in index.regions.nodes.prefix(3) { _ = try? index.search(SearchQuery(region: node.name, sort: .rating)) }
    if index.dayCount > 0 {
        for nights in [1, 3, 8] {
            _ = try? index.search(SearchQuery(checkIn: index.firstDay, checkOut: index.firstDay.advanced(by: nights), adults: 2,
                                              maximumPrice: Money(major: 100)))
        }
    }
    for row in 0..<min(index.count, 3) {
        _ = index.listing(atRow: row)
        _ = index.priceWithoutDates(ofRow: row)
        _ = index.stayRule(row: row, day: index.firstDay)
        _ = index.nights(ofRow: row, from: index.firstDay.advanced(by: -1), to: index.firstDay.advanced(by: 3))
    }
    return 0
}

/// The layout of a saved index (`.ssx`) file, version 12 (version 11 had no bases of dense rows: a row whose
/// dearest night passes 65,535 of its units is stored as runs; version 10 had no wide prices: its prices end at
/// 21,474,836.47; version 9 had no carries of dense rows, whose
/// stays of wide spread are then summed in stretches; version 8 no cheapest nights of dense rows, taken
/// as 0; version 7 had no dense scales: every day-by-day
/// price row counted whole units, and is read so; version 6 kept each listing's fee entry in one
/// piece rather than in planes, and is read so; version 5 had no listing fees, and is read as an index
/// without them; version 4 kept day-by-day prices as a code a day
/// rather than running sums; version 3 had no recent review counts and region aliases; version 2 no
/// listing details: bedrooms, beds,
/// bathrooms, property types, amenities, instant book, superhost; version 1 no dense prices). All numbers
/// are little-endian.
///
/// ```
/// header   64 bytes: magic "STAYSRCH", format version (UInt32), header size (UInt32),
///                    file size (UInt64), rows (UInt64), first day (Int32), days (Int32),
///                    section count (UInt32), the database's today at the position (UInt32: days
///                    since 1970 + 1, for an index made by `import --from`; else 0), change-log position
///                    (UInt64: the top bit set and the position, for an index made by `import --from`; else 0),
///                    checksum of header bytes 0..<56 and the section table (UInt64)
/// sections 32 bytes each: kind (UInt32), element size (UInt32), offset (UInt64),
///                    element count (UInt64), checksum of the section's bytes (UInt64)
/// data     each section's elements, starting at a multiple of 64 bytes
/// ```
///
/// The data are the engine's columns as they are in memory, so loading maps the file and checks it;
/// nothing is parsed. Which sections there are, their numbers and element sizes, is the engine's
/// column table (`IndexStorage.table`): the writer and the reader both walk it.
enum IndexFileFormat {
    static let magic: [UInt8] = Array("STAYSRCH".utf8)
    static let version: UInt32 = 12
    /// The oldest format read: 5, whose files lack only the fee sections.
    static let oldestReadable: UInt32 = 5
    static let headerSize = 64
    static let sectionEntrySize = 32
    static let alignment = 64

    static func aligned(_ offset: Int) -> Int { (offset + alignment - 1) / alignment * alignment }

    static var isLittleEndianHost: Bool { UInt16(littleEndian: 1) == 1 }
}

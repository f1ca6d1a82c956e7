/// The layout of a saved index (`.ssx`) file, version 1. All numbers are little-endian.
///
/// ```
/// header   64 bytes: magic "STAYSRCH", format version (UInt32), header size (UInt32),
///                    file size (UInt64), rows (UInt64), first day (Int32), days (Int32),
///                    section count (UInt32), reserved (UInt32), reserved (UInt64),
///                    checksum of header bytes 0..<56 and the section table (UInt64)
/// sections 32 bytes each: kind (UInt32), element size (UInt32), offset (UInt64),
///                    element count (UInt64), checksum of the section's bytes (UInt64)
/// data     each section's elements, starting at a multiple of 64 bytes
/// ```
///
/// The data are the engine's columns as they are in memory, so loading maps the file and checks it;
/// nothing is parsed.
enum IndexFileFormat {
    static let magic: [UInt8] = Array("STAYSRCH".utf8)
    static let version: UInt32 = 1
    static let headerSize = 64
    static let sectionEntrySize = 32
    static let alignment = 64

    /// What a section holds. The numbers are part of the format: never reuse one.
    enum Section: UInt32, CaseIterable {
        case ids = 1, nameBytes, nameOffsets, regionNodes, roomTypes, accommodates, basePrices, listingPrices
        case listingMinimumNights, listingMaximumNights, ratings, reviewCounts, latitudes, longitudes
        case bookable, pricedWithoutDates, priceRunOffsets, priceRunStarts, priceRunValues
        case ruleRunOffsets, ruleRunStarts, ruleRunValues, roomTypeNameBytes, roomTypeNameOffsets
        case nodeNameBytes, nodeNameOffsets, nodeLevels, nodeParents, nodeRowStarts, nodeRowEnds
        case pricePatterns, rulePatterns

        /// The size of one element, in bytes.
        var elementSize: Int {
            switch self {
            case .nameBytes, .roomTypes, .accommodates, .roomTypeNameBytes, .nodeNameBytes, .nodeLevels: return 1
            case .ratings: return 2
            case .nameOffsets, .regionNodes, .basePrices, .listingPrices, .listingMinimumNights, .listingMaximumNights,
                 .reviewCounts, .latitudes, .longitudes, .priceRunOffsets, .priceRunStarts, .priceRunValues,
                 .ruleRunOffsets, .ruleRunStarts, .ruleRunValues, .roomTypeNameOffsets, .nodeNameOffsets, .nodeParents,
                 .pricePatterns, .rulePatterns:
                return 4
            case .ids, .bookable, .pricedWithoutDates, .nodeRowStarts, .nodeRowEnds: return 8
            }
        }
    }

    static func aligned(_ offset: Int) -> Int { (offset + alignment - 1) / alignment * alignment }

    static var isLittleEndianHost: Bool { UInt16(littleEndian: 1) == 1 }
}

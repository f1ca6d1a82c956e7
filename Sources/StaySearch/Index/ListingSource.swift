/// Listings read by position while an index is built: an array of records, or the compact store an
/// ``IndexBuilder`` keeps them in (``ListingStore``).
package protocol ListingSource {
    /// The number of listings.
    var count: Int { get }
    /// The UTF-8 bytes of every listing's name together.
    var nameByteCount: Int { get }
    /// The listing at `position` (`0 ..< count`); its amenities are not read from here.
    subscript(position: Int) -> ListingRecord { get }
    /// The id of the listing at `position`.
    func id(at position: Int) -> Int64
    /// The region of the listing at `position`.
    func region(at position: Int) -> RegionPath
    /// The property type of the listing at `position`.
    func propertyType(at position: Int) -> String
}

extension Array: ListingSource where Element == ListingRecord {
    package var nameByteCount: Int { reduce(0) { $0 + $1.name.utf8.count } }
    package func id(at position: Int) -> Int64 { self[position].id }
    package func region(at position: Int) -> RegionPath { self[position].region }
    package func propertyType(at position: Int) -> String { self[position].propertyType }
}

import Foundation

/// A field whose values a search can count over its matches, for the filter panel's "how many homes".
public enum Facet: String, CaseIterable, Sendable {
    case roomType = "room_type"
    case propertyType = "property_type"
    case amenities
    case bedrooms
    case instantBookable = "instant_bookable"
    case superhost

    /// Parses a facet name as the CLI and JSON spell it.
    /// - Throws: ``QueryError/unknownFacet(_:)``.
    public init(parsing name: String) throws(QueryError) {
        guard let facet = Facet(rawValue: name.trimmingCharacters(in: .whitespaces)) else { throw .unknownFacet(name) }
        self = facet
    }

    /// Whether `query` sets this facet's own filter (which its counts then leave out). The amenities facet
    /// counts over every filter, amenities included.
    public func isFiltered(in query: SearchQuery) -> Bool {
        switch self {
        case .roomType: return query.roomType != nil
        case .propertyType: return !query.propertyTypes.isEmpty
        case .amenities: return false
        case .bedrooms: return query.bedrooms != nil
        case .instantBookable: return query.instantBookableOnly
        case .superhost: return query.superhostsOnly
        }
    }

    /// `query` without this facet's own filter.
    public func clearingFilter(of query: SearchQuery) -> SearchQuery {
        var query = query
        switch self {
        case .roomType: query.roomType = nil
        case .propertyType: query.propertyTypes = []
        case .amenities: break
        case .bedrooms: query.bedrooms = nil
        case .instantBookable: query.instantBookableOnly = false
        case .superhost: query.superhostsOnly = false
        }
        return query
    }
}

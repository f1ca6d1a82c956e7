/// Where a listing is: `city / neighbourhood group (when not empty) / neighbourhood`.
public struct RegionPath: Hashable, Sendable {
    /// The city, named by the user when loading (the files do not say it).
    public var city: String
    /// `neighbourhood_group_cleansed`; empty when the source has none.
    public var neighbourhoodGroup: String
    /// `neighbourhood_cleansed`; empty when the source has none.
    public var neighbourhood: String

    /// Creates a region path.
    public init(city: String, neighbourhoodGroup: String = "", neighbourhood: String) {
        self.city = city
        self.neighbourhoodGroup = neighbourhoodGroup
        self.neighbourhood = neighbourhood
    }

    /// The non-empty names from the city down.
    public var components: [String] {
        [city, neighbourhoodGroup, neighbourhood].filter { !$0.isEmpty }
    }
}

/// A neighbourhood's boundary, as Inside Airbnb's `neighbourhoods.geojson` gives it, for drawing maps.
public struct NeighbourhoodShape: Sendable, Equatable {
    /// The city it belongs to.
    public var city: String
    /// The neighbourhood's name.
    public var name: String
    /// Its polygons' rings (outer boundaries and holes alike), each a closed list of points.
    public var rings: [[GeoPoint]]

    /// Creates a shape.
    public init(city: String, name: String, rings: [[GeoPoint]]) {
        self.city = city
        self.name = name
        self.rings = rings
    }
}

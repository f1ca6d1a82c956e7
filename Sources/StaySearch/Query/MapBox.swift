/// A map area in degrees, edges included. When `west` is greater than `east` the box crosses the
/// antimeridian (from `west` east to 180, then from -180 to `east`).
public struct MapBox: Sendable, Equatable {
    /// The southern, western, northern and eastern edges.
    public var south, west, north, east: Double

    /// Creates a box from its edges.
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Whether the box crosses the antimeridian.
    public var crossesAntimeridian: Bool { west > east }
}

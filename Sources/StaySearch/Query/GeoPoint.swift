import Foundation

/// A point on the Earth in degrees.
public struct GeoPoint: Sendable, Equatable {
    /// Latitude, -90 to 90.
    public var latitude: Double
    /// Longitude, -180 to 180.
    public var longitude: Double

    /// Creates a point.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The mean Earth radius (IUGG) distances use (docs/query-semantics.md, "Map area").
    public static let earthRadiusKilometres = 6371.0088

    /// The great-circle (haversine) distance to `other` in kilometres on a sphere of
    /// ``earthRadiusKilometres``.
    public func kilometres(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let halfLatitude = (other.latitude - latitude) * radians / 2
        let halfLongitude = (other.longitude - longitude) * radians / 2
        let a = sin(halfLatitude) * sin(halfLatitude)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(halfLongitude) * sin(halfLongitude)
        return 2 * GeoPoint.earthRadiusKilometres * asin(min(1, a.squareRoot()))
    }

    /// Whether both coordinates are finite and in range.
    public var isValid: Bool { latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180 }
}

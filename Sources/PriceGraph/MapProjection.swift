import Foundation
import StaySearch

/// Degrees to pixels for a map of a small area: an equirectangular projection around the area's middle
/// latitude (east–west distances scaled by its cosine), so that a kilometre is as long across as it is
/// up and down there. Longitudes are unwrapped across the antimeridian when the area spans it.
public struct MapProjection: Equatable, Sendable {
    /// Pixels per degree of latitude.
    public let pixelsPerDegree: Double
    /// The cosine of the middle latitude (east–west scale).
    let cosine: Double
    /// The projected point drawn at the plot's centre, in planar degrees.
    let centreX: Double
    let centreY: Double
    /// The plot's centre in pixels.
    let pixelCentreX: Double
    let pixelCentreY: Double
    /// Whether longitudes below 0 are moved by 360° (an area across the antimeridian).
    let unwrapsWest: Bool

    /// The projection that fits `points` inside the plot rectangle, with `margin` pixels around them.
    public init(fitting points: [GeoPoint], plot: (left: Int, top: Int, right: Int, bottom: Int), margin: Int) {
        let longitudes = points.map(\.longitude)
        // Across the antimeridian when moving the western points by 360° makes the span smaller.
        let span = (longitudes.max() ?? 0) - (longitudes.min() ?? 0)
        let unwrapped = longitudes.map { $0 < 0 ? $0 + 360 : $0 }
        let unwrappedSpan = (unwrapped.max() ?? 0) - (unwrapped.min() ?? 0)
        let unwraps = span > 180 && unwrappedSpan < span
        unwrapsWest = unwraps
        let latitudes = points.map(\.latitude)
        let south = latitudes.min() ?? 0, north = latitudes.max() ?? 0
        let cosine = max(0.01, cos((south + north) / 2 * Double.pi / 180))
        self.cosine = cosine
        let xs = points.map { (unwraps && $0.longitude < 0 ? $0.longitude + 360 : $0.longitude) * cosine }
        let west = xs.min() ?? 0, east = xs.max() ?? 0
        centreX = (west + east) / 2
        centreY = (south + north) / 2
        let width = Double(max(1, plot.right - plot.left - 2 * margin))
        let height = Double(max(1, plot.bottom - plot.top - 2 * margin))
        // At least ~200 m across, so that one listing alone is not drawn at an absurd zoom.
        let minimumSpan = 0.002
        pixelsPerDegree = min(width / max(east - west, minimumSpan), height / max(north - south, minimumSpan))
        pixelCentreX = Double(plot.left + plot.right) / 2
        pixelCentreY = Double(plot.top + plot.bottom) / 2
    }

    /// The pixel of a point.
    public func pixel(of point: GeoPoint) -> (x: Int, y: Int) {
        let longitude = unwrapsWest && point.longitude < 0 ? point.longitude + 360 : point.longitude
        let x = pixelCentreX + (longitude * cosine - centreX) * pixelsPerDegree
        let y = pixelCentreY - (point.latitude - centreY) * pixelsPerDegree
        return (Int(x.rounded()), Int(y.rounded()))
    }

    /// The point drawn at a pixel: the inverse of ``pixel(of:)``. On a map across the antimeridian the
    /// longitudes east of it come out above 180°.
    public func point(atX x: Double, y: Double) -> GeoPoint {
        GeoPoint(latitude: centreY - (y - pixelCentreY) / pixelsPerDegree,
                 longitude: (centreX + (x - pixelCentreX) / pixelsPerDegree) / cosine)
    }

    /// Kilometres a pixel spans (the same across and up and down at the middle latitude).
    public var kilometresPerPixel: Double { GeoPoint.earthRadiusKilometres * Double.pi / 180 / pixelsPerDegree }
}

import Foundation
import StaySearch

/// Reads Inside Airbnb's `neighbourhoods.geojson`: a FeatureCollection whose features carry a
/// `neighbourhood` name and a Polygon or MultiPolygon geometry of `[longitude, latitude]` points.
enum NeighbourhoodFile {
    /// The file's name in a data folder.
    static let name = "neighbourhoods.geojson"

    /// The shapes in the file at `path`, for `city`.
    /// - Throws: ``DataError/malformedFile(path:reason:)`` when it is not such a GeoJSON file.
    static func read(path: String, city: String) throws(DataError) -> [NeighbourhoodShape] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .malformedFile(path: path, reason: "cannot be read")
        }
        return try parse(data, path: path, city: city)
    }

    /// The shapes in GeoJSON `data`.
    static func parse(_ data: Data, path: String, city: String) throws(DataError) -> [NeighbourhoodShape] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformedFile(path: path, reason: "is not JSON")
        }
        guard let collection = object as? [String: Any], let features = collection["features"] as? [Any] else {
            throw .malformedFile(path: path, reason: "is not a GeoJSON FeatureCollection")
        }
        var shapes: [NeighbourhoodShape] = []
        for (number, feature) in features.enumerated() {
            guard let feature = feature as? [String: Any], let geometry = feature["geometry"] as? [String: Any],
                  let kind = geometry["type"] as? String, let coordinates = geometry["coordinates"] as? [Any] else {
                throw .malformedFile(path: path, reason: "feature \(number + 1) has no geometry")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let name = (properties["neighbourhood"] as? String) ?? (properties["name"] as? String) ?? ""
            let polygons: [Any]
            switch kind {
            case "Polygon": polygons = [coordinates]
            case "MultiPolygon": polygons = coordinates
            default: throw .malformedFile(path: path, reason: "feature \(number + 1) is a \(kind), not a Polygon or MultiPolygon")
            }
            var rings: [[GeoPoint]] = []
            for polygon in polygons {
                guard let polygon = polygon as? [Any] else { throw .malformedFile(path: path, reason: "feature \(number + 1) has a bad polygon") }
                for ring in polygon {
                    guard let ring = ring as? [Any] else { throw .malformedFile(path: path, reason: "feature \(number + 1) has a bad ring") }
                    var points: [GeoPoint] = []
                    for point in ring {
                        guard let pair = point as? [Any], pair.count >= 2,
                              let longitude = (pair[0] as? NSNumber)?.doubleValue, let latitude = (pair[1] as? NSNumber)?.doubleValue,
                              abs(latitude) <= 90, abs(longitude) <= 180 else {
                            throw .malformedFile(path: path, reason: "feature \(number + 1) has a point that is not [longitude, latitude]")
                        }
                        points.append(GeoPoint(latitude: latitude, longitude: longitude))
                    }
                    if points.count >= 3 { rings.append(points) }
                }
            }
            shapes.append(NeighbourhoodShape(city: city, name: name, rings: rings))
        }
        return shapes
    }
}

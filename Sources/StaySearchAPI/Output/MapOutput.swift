import PriceGraph
import StaySearch

/// Drawing a search's results on a map PNG.
package enum MapOutput {
    /// Writes the map of `result` (the page as price pins, every other match as a dot, the searched area
    /// outlined) to `path`.
    package static func writePNG(query: SearchQuery, result: SearchResult, index: ListingIndex, to path: String, width: Int, height: Int,
                         scale: Int, threads: Int, style: DisplayStyle = .standard) throws {
        let dots = try index.matchPositions(query, threads: threads)
        let png: [UInt8]
        do {
            png = try mapPNG(query: query, result: result, matches: dots, boundaries: index.neighbourhoodShapes(),
                             title: ChartOutput.titles(query: query, result: result, index: index, style: style).0, width: width,
                             height: height, scale: scale, style: style)
        } catch {
            throw CommandFailure(message: "\(path): \(error.description)", code: ExitStatus.badInput)
        }
        try FileOutput.write(png, to: path)
    }

    /// The map of `result` as PNG bytes: `matches` (every match's position) as dots under the page's pins.
    package static func mapPNG(query: SearchQuery, result: SearchResult, matches: [(id: Int64, position: GeoPoint)],
                       boundaries: [NeighbourhoodShape], title: String, width: Int, height: Int, scale: Int,
                       style: DisplayStyle = .standard) throws(GraphError) -> [UInt8] {
        try map(query: query, result: result, matches: matches, boundaries: boundaries, title: title, width: width, height: height,
                scale: scale, style: style).png
    }

    /// The map of `result` as PNG bytes, where each result's pin is on it (output pixels, in the order of
    /// `result.matches`), and the degrees its edges stand for (its projection is linear in both).
    package static func map(query: SearchQuery, result: SearchResult, matches: [(id: Int64, position: GeoPoint)],
                    boundaries: [NeighbourhoodShape], title: String, width: Int, height: Int,
                    scale: Int, style: DisplayStyle = .standard) throws(GraphError)
        -> (png: [UInt8], pins: [(x: Int, y: Int)], view: (south: Double, west: Double, north: Double, east: Double)) {
        let pins = result.matches.map { match in
            MapChart.Pin(position: GeoPoint(latitude: match.latitude, longitude: match.longitude),
                         label: style.money(match.nightlyPrice, showsCents: false))
        }
        let onPage = Set(result.matches.map(\.id))
        let dots = matches.filter { !onPage.contains($0.id) }.map(\.position)
        var area: MapChart.Area?
        if let box = query.boundingBox { area = .box(box) }
        if let centre = query.near, let radius = query.radiusKilometres { area = .circle(centre: centre, radiusKilometres: radius) }
        var chart = MapChart(pins: pins, dots: dots, area: area,
                             title: style.language == .korean ? "\(title) · 숙소 \(ResultFormatting.grouped(result.total))곳"
                                : "\(title) · \(ResultFormatting.grouped(result.total)) homes",
                             fonts: FontLocator.sans(for: style.language))
        chart.boundaries = boundaries
        chart.width = width
        chart.height = height
        chart.scale = scale
        let layout = try chart.layout()
        let northWest = layout.projection.point(atX: 0, y: 0)
        let southEast = layout.projection.point(atX: Double(width * scale), y: Double(height * scale))
        return (try chart.render(layout).pngData(), layout.pins.map { ($0.x, $0.y) },
                (southEast.latitude, northWest.longitude, northWest.latitude, southEast.longitude))
    }
}

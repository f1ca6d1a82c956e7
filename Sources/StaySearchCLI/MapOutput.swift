import PriceGraph
import StaySearch

/// Drawing a search's results on a map PNG.
enum MapOutput {
    /// Writes the map of `result` (the page as price pins, every other match as a dot, the searched area
    /// outlined) to `path`.
    static func writePNG(query: SearchQuery, result: SearchResult, index: ListingIndex, to path: String, width: Int, height: Int,
                         scale: Int, threads: Int) throws {
        let fonts = FontLocator.sans()
        let pins = result.matches.map { match in
            MapChart.Pin(position: GeoPoint(latitude: match.latitude, longitude: match.longitude),
                         label: match.nightlyPrice.formatted(showsCents: false))
        }
        let onPage = Set(result.matches.map(\.id))
        let dots = try index.matchPositions(query, threads: threads).filter { !onPage.contains($0.id) }.map(\.position)
        var area: MapChart.Area?
        if let box = query.boundingBox { area = .box(box) }
        if let centre = query.near, let radius = query.radiusKilometres { area = .circle(centre: centre, radiusKilometres: radius) }
        let (title, _) = ChartOutput.titles(query: query, result: result, index: index)
        var chart = MapChart(pins: pins, dots: dots, area: area,
                             title: "\(title) · \(ResultFormatting.grouped(result.total)) homes", fonts: fonts)
        chart.boundaries = index.neighbourhoodShapes()
        chart.width = width
        chart.height = height
        chart.scale = scale
        let png: [UInt8]
        do {
            png = try chart.render().pngData()
        } catch {
            throw CommandFailure(message: "\(path): \(error.description)", code: ExitStatus.badInput)
        }
        try FileOutput.write(png, to: path)
    }
}

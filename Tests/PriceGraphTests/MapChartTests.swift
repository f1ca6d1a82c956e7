import Foundation
import PriceGraph
import StaySearch
import Testing

@Suite struct MapChartTests {
    /// Three pins in Antwerp, two far apart and one on top of the first, and dots around them.
    private let pins = [
        MapChart.Pin(position: GeoPoint(latitude: 51.2172, longitude: 4.4212), label: "$95"),
        MapChart.Pin(position: GeoPoint(latitude: 51.2000, longitude: 4.3900), label: "$120"),
        MapChart.Pin(position: GeoPoint(latitude: 51.21721, longitude: 4.42121), label: "$70"),
    ]
    private let dots = [GeoPoint(latitude: 51.205, longitude: 4.40), GeoPoint(latitude: 51.21, longitude: 4.41)]

    private func chart(scale: Int, area: MapChart.Area? = nil) -> MapChart {
        var chart = MapChart(pins: pins, dots: dots, area: area, title: "Antwerp · 3 homes", fonts: FontLocator.sans())
        chart.scale = scale
        return chart
    }

    @Test(arguments: [1, 2])
    func pinsSitWhereTheirCoordinatesAre(scale: Int) throws {
        let chart = chart(scale: scale)
        let layout = try chart.layout()
        let image = try GDImage(png: try chart.render().pngData())
        #expect(image.width == 800 * scale && image.height == 600 * scale)
        // Every pin inside the image, below the title bar.
        for pin in layout.pins {
            #expect(pin.x > 0 && pin.x < image.width && pin.y > 34 * scale && pin.y < image.height)
        }
        // North is up and east is right; equal kilometres across and up at this latitude.
        #expect(layout.pins[0].x > layout.pins[1].x && layout.pins[0].y < layout.pins[1].y)
        let dx = Double(layout.pins[0].x - layout.pins[1].x) * layout.projection.kilometresPerPixel
        let dy = Double(layout.pins[1].y - layout.pins[0].y) * layout.projection.kilometresPerPixel
        let east = GeoPoint(latitude: 51.2086, longitude: 4.3900).kilometres(to: GeoPoint(latitude: 51.2086, longitude: 4.4212))
        let north = GeoPoint(latitude: 51.2000, longitude: 4.40).kilometres(to: GeoPoint(latitude: 51.2172, longitude: 4.40))
        #expect(abs(dx - east) < 0.02 && abs(dy - north) < 0.02, "\(dx) vs \(east), \(dy) vs \(north)")
        // The top result's label is dark, the second's white.
        let top = try #require(layout.pins[0].label), second = try #require(layout.pins[1].label)
        #expect(image.pixel(x: top.left + 3 * scale, y: (top.top + top.bottom) / 2) == Color(hex: 0x222222))
        #expect(image.pixel(x: second.left + 3 * scale, y: (second.top + second.bottom) / 2) == Color(hex: 0xFFFFFF))
        // The third pin sits on the first: no label of its own, so labels never overlap.
        #expect(layout.pins[2].label == nil)
        // The scale bar is a round length that takes at most a quarter of the width.
        #expect(layout.scaleBar.pixels > 0 && layout.scaleBar.pixels <= 200 * scale)
        #expect([0.05, 0.1, 0.2, 0.5, 1, 2, 5].contains(layout.scaleBar.kilometres))
    }

    @Test func theSearchedAreaIsInView() throws {
        let box = MapBox(south: 51.15, west: 4.30, north: 51.25, east: 4.50)
        let layout = try chart(scale: 1, area: .box(box)).layout()
        for corner in [GeoPoint(latitude: box.south, longitude: box.west), GeoPoint(latitude: box.north, longitude: box.east)] {
            let (x, y) = layout.projection.pixel(of: corner)
            #expect(x >= 0 && x <= 800 && y >= 34 && y <= 600)
        }
        // A radius of 5 km is drawn 5 km wide either side.
        let circle = try chart(scale: 1, area: .circle(centre: pins[0].position, radiusKilometres: 5)).layout()
        let west = circle.projection.pixel(of: GeoPoint(latitude: 51.2172, longitude: 4.4212 - 5 / (111.19508 * cos(51.2172 * .pi / 180))))
        let centre = circle.projection.pixel(of: pins[0].position)
        #expect(abs(Double(centre.x - west.x) * circle.projection.kilometresPerPixel - 5) < 0.05)
    }

    @Test func neighbourhoodsAreOutlinedAndNamed() throws {
        var map = chart(scale: 1)
        map.boundaries = [NeighbourhoodShape(city: "Antwerp", name: "Centrum", rings: [[
            GeoPoint(latitude: 51.205, longitude: 4.395), GeoPoint(latitude: 51.205, longitude: 4.43),
            GeoPoint(latitude: 51.22, longitude: 4.43), GeoPoint(latitude: 51.205, longitude: 4.395),
        ]])]
        let layout = try map.layout()
        let image = try GDImage(png: try map.render().pngData())
        // The ring's southern edge runs along y of latitude 51.205: a boundary pixel halfway along it (unless
        // a pin or dot covers it there, which this layout does not).
        let a = layout.projection.pixel(of: GeoPoint(latitude: 51.205, longitude: 4.418))
        #expect(image.pixel(x: a.x, y: a.y) == Color(hex: 0xB9AF9C))
    }

    @Test func anAreaAcrossTheAntimeridianIsOnePiece() throws {
        let across = [GeoPoint(latitude: -17.0, longitude: 179.9), GeoPoint(latitude: -17.1, longitude: -179.9)]
        let projection = MapProjection(fitting: across, plot: (0, 0, 800, 600), margin: 30)
        let (a, b) = (projection.pixel(of: across[0]), projection.pixel(of: across[1]))
        #expect(b.x > a.x && b.x - a.x < 800)        // the eastern point is just east, not across the world
    }
}

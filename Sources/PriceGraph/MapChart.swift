import Foundation
import StaySearch

/// A search's results on a map, drawn the way an accommodation app draws them: the page's listings as
/// price pins (the price in a rounded label, the top result dark), every other match as a small dot,
/// neighbourhood boundaries and names when the data has them, the searched box or radius outlined, a scale bar in kilometres, and a title. The view fits the pins and the
/// searched area. Labels never overlap: a pin
/// whose label would cover one already placed (better-ranked first) is drawn as a dot with a ring.
/// No map tiles (nothing outside the machine can be reached): a plain background with a light graticule.
public struct MapChart {
    /// One result on the page.
    public struct Pin: Equatable, Sendable {
        public var position: GeoPoint
        /// The label, e.g. `$120`.
        public var label: String
        public init(position: GeoPoint, label: String) {
            self.position = position
            self.label = label
        }
    }

    /// What the search was limited to, outlined.
    public enum Area: Equatable, Sendable {
        case box(MapBox)
        case circle(centre: GeoPoint, radiusKilometres: Double)
    }

    /// The page's results, best first.
    public var pins: [Pin]
    /// Every other match.
    public var dots: [GeoPoint]
    /// The searched area, if any.
    public var area: Area?
    /// Neighbourhood boundaries to outline and name (those outside the view cost nothing).
    public var boundaries: [NeighbourhoodShape] = []
    /// The title line.
    public var title: String
    /// Size in logical pixels; the PNG is `width × scale` by `height × scale`.
    public var width = 800
    public var height = 600
    /// 1 for normal screens, 2 for high-density ones.
    public var scale = 1
    /// TrueType fonts, or nil to use gd's built-in bitmap font.
    public var fonts: (regular: String, bold: String)?

    /// Creates a chart.
    public init(pins: [Pin], dots: [GeoPoint], area: Area?, title: String, fonts: (regular: String, bold: String)?) {
        self.pins = pins
        self.dots = dots
        self.area = area
        self.title = title
        self.fonts = fonts
    }

    /// Where everything goes, in output pixels.
    public struct Layout {
        /// The projection.
        public var projection: MapProjection
        /// Each pin's point and, when its label fits, the label's rectangle (nil: drawn as a ringed dot).
        public var pins: [(x: Int, y: Int, label: (left: Int, top: Int, right: Int, bottom: Int)?)]
        /// The scale bar's length in pixels and in kilometres.
        public var scaleBar: (pixels: Int, kilometres: Double)
    }

    static let background = Color(hex: 0xF4F1EA)
    static let graticule = Color(hex: 0xE4DFD3)
    static let ink = Color(hex: 0x222222)
    static let muted = Color(hex: 0x717171)
    static let white = Color(hex: 0xFFFFFF)
    static let dot = Color(hex: 0xE31C5F, alpha: 30)
    static let outline = Color(hex: 0x3D6FD8)
    static let boundary = Color(hex: 0xB9AF9C)
    static let boundaryText = Color(hex: 0x8A8170)
    static let labelSize = 10.0

    /// Computes the layout.
    /// - Throws: ``GraphError`` when text cannot be measured.
    public func layout() throws(GraphError) -> Layout {
        let s = scale
        let top = 34 * s
        // Fitted to the page's pins and the searched area, as an app zooms to its results; the other
        // matches only when there is no pin (outliers far away would shrink the city to a corner).
        var points = pins.isEmpty ? dots : pins.map(\.position)
        switch area {
        case .box(let box)?:
            points += [GeoPoint(latitude: box.south, longitude: box.west), GeoPoint(latitude: box.north, longitude: box.east)]
        case let .circle(centre, radius)?:
            let degrees = radius / (GeoPoint.earthRadiusKilometres * Double.pi / 180)
            let across = degrees / max(0.01, cos(centre.latitude * Double.pi / 180))
            points += [GeoPoint(latitude: max(-90, centre.latitude - degrees), longitude: centre.longitude - across),
                       GeoPoint(latitude: min(90, centre.latitude + degrees), longitude: centre.longitude + across)]
        case nil: break
        }
        let projection = MapProjection(fitting: points, plot: (0, top, width * s, height * s), margin: 48 * s)
        let text = TextPainter(image: nil, fonts: fonts, scale: s)
        var placed: [(left: Int, top: Int, right: Int, bottom: Int)] = []
        var laidOut: [(x: Int, y: Int, label: (left: Int, top: Int, right: Int, bottom: Int)?)] = []
        for pin in pins {
            let (x, y) = projection.pixel(of: pin.position)
            let labelWidth = try text.width(pin.label, size: MapChart.labelSize, bold: true) + 14 * s
            let labelHeight = 20 * s
            let rectangle = (left: x - labelWidth / 2, top: y - labelHeight / 2, right: x + labelWidth / 2, bottom: y + labelHeight / 2)
            let overlaps = placed.contains { other in
                rectangle.left < other.right + 2 * s && other.left < rectangle.right + 2 * s
                    && rectangle.top < other.bottom + 2 * s && other.top < rectangle.bottom + 2 * s
            }
            if overlaps {
                laidOut.append((x, y, nil))
            } else {
                placed.append(rectangle)
                laidOut.append((x, y, rectangle))
            }
        }
        // The longest round length that takes at most a quarter of the width.
        let perPixel = projection.kilometresPerPixel
        let lengths: [Double] = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000]
        let kilometres = lengths.last { $0 / perPixel <= Double(width * s) / 4 } ?? lengths[0]
        return Layout(projection: projection, pins: laidOut, scaleBar: (Int((kilometres / perPixel).rounded()), kilometres))
    }

    /// Draws the chart.
    /// - Throws: ``GraphError`` when the image or its text cannot be made.
    public func render() throws(GraphError) -> GDImage {
        try render(try layout())
    }

    /// Draws the chart as `layout` (this chart's ``layout()``) places it.
    /// - Throws: ``GraphError`` when the image or its text cannot be made.
    public func render(_ layout: Layout) throws(GraphError) -> GDImage {
        let s = scale
        let image = try GDImage(width: width * s, height: height * s)
        let projection = layout.projection
        image.fillRectangle(x1: 0, y1: 0, x2: width * s - 1, y2: height * s - 1, color: Self.background)
        drawGraticule(image, projection: projection)

        let text = TextPainter(image: image, fonts: fonts, scale: s)
        try drawBoundaries(image, projection: projection, text: text, avoiding: [], names: false)
        for point in dots {
            let (x, y) = projection.pixel(of: point)
            guard x > -10 * s, y > -10 * s, x < (width + 10) * s, y < (height + 10) * s else { continue }
            image.fillEllipse(x: x, y: y, width: 8 * s, height: 8 * s, color: Self.white)
            image.fillEllipse(x: x, y: y, width: 6 * s, height: 6 * s, color: Self.dot)
        }
        switch area {
        case .box(let box)?:
            let a = projection.pixel(of: GeoPoint(latitude: box.north, longitude: box.west))
            let b = projection.pixel(of: GeoPoint(latitude: box.south, longitude: box.east))
            for (x1, y1, x2, y2) in [(a.x, a.y, b.x, a.y), (b.x, a.y, b.x, b.y), (b.x, b.y, a.x, b.y), (a.x, b.y, a.x, a.y)] {
                image.line(x1: x1, y1: y1, x2: x2, y2: y2, color: Self.outline, thickness: 2 * s)
            }
        case let .circle(centre, radius)?:
            let (x, y) = projection.pixel(of: centre)
            // A polygon of short strokes (gd's ellipse outline ignores the line thickness).
            let pixels = radius / projection.kilometresPerPixel
            var previous = (x: x + Int(pixels.rounded()), y: y)
            for step in 1...120 {
                let angle = Double(step) * 2 * Double.pi / 120
                let next = (x: x + Int((pixels * cos(angle)).rounded()), y: y - Int((pixels * sin(angle)).rounded()))
                image.line(x1: previous.x, y1: previous.y, x2: next.x, y2: next.y, color: Self.outline, thickness: 2 * s)
                previous = next
            }
            image.fillEllipse(x: x, y: y, width: 7 * s, height: 7 * s, color: Self.outline)
        case nil: break
        }

        // Neighbourhood names over the dots, under the pins.
        try drawBoundaries(image, projection: projection, text: text, avoiding: layout.pins.compactMap(\.label), names: true)
        // Pins without room for a label, then labels from the last to the first, so the top one is on top.
        for pin in layout.pins where pin.label == nil {
            image.fillEllipse(x: pin.x, y: pin.y, width: 9 * s, height: 9 * s, color: Self.ink)
            image.fillEllipse(x: pin.x, y: pin.y, width: 5 * s, height: 5 * s, color: Self.white)
        }
        for (number, pin) in layout.pins.enumerated().reversed() {
            guard let label = pin.label else { continue }
            let isTop = number == 0
            let fill = isTop ? Self.ink : Self.white
            // A shadow, the rounded label, its text.
            roundedRectangle(image, left: label.left + s, top: label.top + 2 * s, right: label.right + s, bottom: label.bottom + 2 * s,
                             radius: 10 * s, color: Color(hex: 0x000000, alpha: 100))
            if !isTop {
                roundedRectangle(image, left: label.left - s, top: label.top - s, right: label.right + s, bottom: label.bottom + s,
                                 radius: 11 * s, color: Color(hex: 0xDDDDDD))
            }
            roundedRectangle(image, left: label.left, top: label.top, right: label.right, bottom: label.bottom, radius: 10 * s, color: fill)
            try text.draw(pins[number].label, centre: (label.left + label.right) / 2, baseline: label.bottom - 6 * s,
                          size: Self.labelSize, bold: true, color: isTop ? Self.white : Self.ink)
        }

        // Scale bar, bottom left; title, top left.
        let barLeft = 16 * s, barY = height * s - 16 * s
        image.fillRectangle(x1: barLeft - 4 * s, y1: barY - 18 * s, x2: barLeft + layout.scaleBar.pixels + 40 * s, y2: barY + 6 * s,
                            color: Color(hex: 0xFFFFFF, alpha: 40))
        image.line(x1: barLeft, y1: barY, x2: barLeft + layout.scaleBar.pixels, y2: barY, color: Self.ink, thickness: 2 * s)
        for x in [barLeft, barLeft + layout.scaleBar.pixels] {
            image.line(x1: x, y1: barY - 5 * s, x2: x, y2: barY, color: Self.ink, thickness: 2 * s)
        }
        let kilometres = layout.scaleBar.kilometres
        let barText = kilometres < 1 ? "\(Int((kilometres * 1000).rounded())) m" : "\(Int(kilometres)) km"
        try text.draw(barText, x: barLeft + layout.scaleBar.pixels + 6 * s, baseline: barY + 2 * s, size: 9, color: Self.ink)
        image.fillRectangle(x1: 0, y1: 0, x2: width * s - 1, y2: 33 * s, color: Self.white)
        image.line(x1: 0, y1: 33 * s, x2: width * s - 1, y2: 33 * s, color: Color(hex: 0xDDDDDD))
        try text.draw(title, x: 14 * s, baseline: 22 * s, size: 11, bold: true, color: Self.ink)
        return image
    }

    /// Each neighbourhood's rings as thin lines (`names` false), or its name (`names` true) at the middle of
    /// its largest ring when that is in view and the name covers neither a pin's label nor another name.
    private func drawBoundaries(_ image: GDImage, projection: MapProjection, text: TextPainter,
                                avoiding labels: [(left: Int, top: Int, right: Int, bottom: Int)], names: Bool) throws(GraphError) {
        let s = scale
        var taken = labels
        let (right, bottom) = (width * s, height * s)
        for shape in boundaries {
            var largest: (points: [(x: Int, y: Int)], area: Int)?
            for ring in shape.rings {
                let points = ring.map { projection.pixel(of: $0) }
                let xs = points.map(\.x), ys = points.map(\.y)
                guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
                      maxX >= 0, minX <= right, maxY >= 34 * s, minY <= bottom else { continue }
                if !names {
                    for (a, b) in zip(points, points.dropFirst()) {
                        image.line(x1: a.x, y1: a.y, x2: b.x, y2: b.y, color: Self.boundary, thickness: s)
                    }
                }
                let area = (maxX - minX) * (maxY - minY)
                if area > (largest?.area ?? -1) { largest = (points, area) }
            }
            guard names, let ring = largest, !shape.name.isEmpty else { continue }
            let xs = ring.points.map(\.x), ys = ring.points.map(\.y)
            let centre = ((xs.min()! + xs.max()!) / 2, (ys.min()! + ys.max()!) / 2)
            let nameWidth = try text.width(shape.name, size: 8, bold: false)
            let box = (left: centre.0 - nameWidth / 2, top: centre.1 - 8 * s, right: centre.0 + nameWidth / 2, bottom: centre.1 + 3 * s)
            guard box.left > 0, box.right < right, box.top > 36 * s, box.bottom < bottom - 24 * s,
                  xs.max()! - xs.min()! > nameWidth / 2,
                  !taken.contains(where: { box.left < $0.right && $0.left < box.right && box.top < $0.bottom && $0.top < box.bottom })
            else { continue }
            taken.append(box)
            image.fillRectangle(x1: box.left - 3 * s, y1: box.top - s, x2: box.right + 3 * s, y2: box.bottom + s,
                                color: Color(hex: 0xF4F1EA, alpha: 30))
            try text.draw(shape.name, x: box.left, baseline: centre.1, size: 8, color: Self.boundaryText)
        }
    }

    /// Light lines at round degrees (a step giving about 4–10 lines across).
    private func drawGraticule(_ image: GDImage, projection: MapProjection) {
        let degreesAcross = Double(width * scale) / projection.pixelsPerDegree
        let steps: [Double] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 45]
        let step = steps.first { degreesAcross / $0 <= 10 } ?? 45
        let topLeftY = 34 * scale
        // Latitude lines.
        let centreLatitude = (projection.centreY / step).rounded() * step
        for k in -40...40 {
            let latitude = centreLatitude + Double(k) * step
            guard abs(latitude) <= 90 else { continue }
            let y = projection.pixel(of: GeoPoint(latitude: latitude, longitude: 0)).y
            if y > topLeftY, y < height * scale { image.line(x1: 0, y1: y, x2: width * scale - 1, y2: y, color: Self.graticule) }
        }
        let centreLongitude = (projection.centreX / projection.cosine / step).rounded() * step
        for k in -60...60 {
            var longitude = centreLongitude + Double(k) * step
            if longitude > 180 { longitude -= 360 }
            let x = projection.pixel(of: GeoPoint(latitude: projection.centreY, longitude: longitude)).x
            if x > 0, x < width * scale { image.line(x1: x, y1: topLeftY, x2: x, y2: height * scale - 1, color: Self.graticule) }
        }
    }

    /// A filled rectangle with round corners.
    private func roundedRectangle(_ image: GDImage, left: Int, top: Int, right: Int, bottom: Int, radius: Int, color: Color) {
        let r = min(radius, (bottom - top) / 2, (right - left) / 2)
        image.fillRectangle(x1: left + r, y1: top, x2: right - r, y2: bottom, color: color)
        image.fillRectangle(x1: left, y1: top + r, x2: left + r - 1, y2: bottom - r, color: color)
        image.fillRectangle(x1: right - r + 1, y1: top + r, x2: right, y2: bottom - r, color: color)
        for (x, y) in [(left + r, top + r), (right - r, top + r), (left + r, bottom - r), (right - r, bottom - r)] {
            image.fillEllipse(x: x, y: y, width: 2 * r, height: 2 * r, color: color)
        }
    }
}

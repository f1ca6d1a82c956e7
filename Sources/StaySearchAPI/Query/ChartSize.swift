/// The size of a PNG chart: logical pixels and the scale they are drawn at. The one check of a chart's size,
/// for every command and route that draws one.
package struct ChartSize: Sendable, Equatable {
    package static let widthRange = 200...4_000
    package static let heightRange = 150...3_000
    package static let scaleRange = 1...4
    /// The most pixels a picture has (after `scale`), so that one request cannot take gigabytes.
    package static let largestPicture = 16_000_000

    package var width: Int
    package var height: Int
    package var scale: Int

    package init(width: Int, height: Int, scale: Int = 1) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// The size of a histogram unless one is asked for.
    package static let histogram = ChartSize(width: 800, height: 360)
    /// The size of a map unless one is asked for.
    package static let map = ChartSize(width: 800, height: 600)

    /// Checks the bounds of each key and of the whole picture.
    package func validate() throws(InputError) {
        for (key, value, range) in [("width", width, Self.widthRange), ("height", height, Self.heightRange), ("scale", scale, Self.scaleRange)]
        where !range.contains(value) {
            throw InputError("\(key) must be from \(range.lowerBound) to \(range.upperBound) (got \(value))")
        }
        guard width * height * scale * scale <= Self.largestPicture else {
            throw InputError("the picture would be \(width * scale)×\(height * scale) pixels; at most \(Self.largestPicture / 1_000_000) million")
        }
    }

    /// This size with the keys among `items` that are chart keys read over it; the other items are returned.
    package func reading(_ items: [(key: String, value: String)]) throws(InputError) -> (size: ChartSize, rest: [(key: String, value: String)]) {
        var size = self
        var rest: [(key: String, value: String)] = []
        for (key, text) in items {
            guard QuerySchema.chart.contains(where: { $0.key == key }) else {
                rest.append((key, text))
                continue
            }
            guard let number = Int(text) else { throw InputError("\(key) must be a whole number (got \(text))") }
            switch key {
            case "width": size.width = number
            case "height": size.height = number
            default: size.scale = number
            }
        }
        try size.validate()
        return (size, rest)
    }
}

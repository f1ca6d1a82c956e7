import StaySearch

/// The price histogram as a picture: a bar per bin over the nightly price range, the selected price
/// range in colour and the rest dimmed, slider thumbs at the range's ends, the "hi+" overflow bar
/// marked as such, round price ticks, counts on y, the average marked, and a title saying what was
/// searched.
public struct HistogramChart {
    /// The histogram to draw.
    public var histogram: PriceHistogram
    /// Nights of the stay (1 without dates): bins are on nightly prices.
    public var nights: Int
    /// The selected range's low end, if any.
    public var minimumPrice: Money?
    /// The selected range's high end, if any.
    public var maximumPrice: Money?
    /// The first title line, e.g. the region and dates.
    public var title: String
    /// The second title line, e.g. guests and how many listings.
    public var subtitle: String
    /// Size in logical pixels; the PNG is `width × scale` by `height × scale`.
    public var width = 800
    /// See ``width``.
    public var height = 360
    /// 1 for normal screens, 2 for high-density ones.
    public var scale = 1
    /// TrueType fonts, or nil to use gd's built-in bitmap font.
    public var fonts: (regular: String, bold: String)?
    /// How prices and words are written.
    public var style: DisplayStyle = .standard

    /// Creates a chart.
    public init(histogram: PriceHistogram, nights: Int, minimumPrice: Money?, maximumPrice: Money?, title: String,
                subtitle: String, fonts: (regular: String, bold: String)?) {
        self.histogram = histogram
        self.nights = nights
        self.minimumPrice = minimumPrice
        self.maximumPrice = maximumPrice
        self.title = title
        self.subtitle = subtitle
        self.fonts = fonts
    }

    /// Where everything goes, in output pixels.
    public struct Layout: Equatable {
        /// What a bar stands for.
        public enum Kind: Equatable { case bin(Int), underflow, overflow }
        /// One bar: its horizontal extent, its top (the baseline is ``baseline``), and whether it is in the selected range.
        public struct Bar: Equatable {
            public var kind: Kind
            public var left: Int
            public var right: Int
            public var top: Int
            public var count: Int
            public var isSelected: Bool
        }
        public var plotLeft: Int
        public var plotRight: Int
        public var plotTop: Int
        /// The y of the bars' base.
        public var baseline: Int
        /// The count at the top of the y axis.
        public var countAxisMaximum: Int
        public var bars: [Bar]
        /// The x of the slider thumbs (range ends).
        public var thumbs: [Int]
        /// The x of the average price, when it is inside the bins.
        public var averageX: Int?
        /// Where price `p` (major units) is on the x axis.
        public var binsLeft: Int
        public var binsRight: Int
    }

    /// Colours.
    static let selected = Color(hex: 0xE31C5F)
    static let dimmed = Color(hex: 0xD9D9D9)
    static let overflowSelected = Color(hex: 0x9E1442)
    static let ink = Color(hex: 0x222222)
    static let muted = Color(hex: 0x717171)
    static let grid = Color(hex: 0xEBEBEB)

    /// The geometry of the chart.
    public func layout() -> Layout {
        let s = scale
        let plotLeft = 56 * s, plotRight = (width - 24) * s, plotTop = 64 * s, baseline = (height - 56) * s
        let hasOverflow = histogram.overflow > 0, hasUnderflow = histogram.underflow > 0
        let bins = histogram.counts.count
        let slots = bins + (hasOverflow ? 1 : 0) + (hasUnderflow ? 1 : 0)
        let gapSlots = (hasOverflow ? 1 : 0) + (hasUnderflow ? 1 : 0)
        let slotWidth = Double(plotRight - plotLeft) / (Double(slots) + 0.5 * Double(gapSlots))
        let gap = max(1, Int(slotWidth / 8))
        let maxCount = max(1, (histogram.counts + [histogram.overflow, histogram.underflow]).max() ?? 1)
        let countAxisMaximum = Int(PriceTicks.ticks(from: 0, to: Double(maxCount) * 1.0001 + PriceTicks.step(for: Double(maxCount), count: 4), count: 4)
            .first { $0 >= Double(maxCount) } ?? Double(maxCount))
        func top(_ count: Int) -> Int {
            baseline - Int((Double(count) / Double(countAxisMaximum) * Double(baseline - plotTop)).rounded())
        }
        var x = Double(plotLeft)
        var bars: [Layout.Bar] = []
        let lo = Double(histogram.lo.minorUnits) / 100, hi = Double(histogram.hi.minorUnits) / 100
        let low = minimumPrice.map { Double($0.minorUnits) / 100 }, high = maximumPrice.map { Double($0.minorUnits) / 100 }
        if hasUnderflow {
            bars.append(.init(kind: .underflow, left: Int(x), right: Int(x + slotWidth) - gap, top: top(histogram.underflow),
                              count: histogram.underflow, isSelected: low.map { $0 < lo } ?? true))
            x += slotWidth * 1.5
        }
        let binsLeft = Int(x)
        let binWidth = (hi - lo) / Double(bins)
        for (bin, count) in histogram.counts.enumerated() {
            let from = lo + Double(bin) * binWidth, to = from + binWidth
            let isSelected = (low.map { to > $0 } ?? true) && (high.map { from <= $0 } ?? true)
            bars.append(.init(kind: .bin(bin), left: Int(x), right: Int(x + slotWidth) - gap, top: top(count), count: count,
                              isSelected: isSelected))
            x += slotWidth
        }
        let binsRight = Int(x)
        if hasOverflow {
            x += slotWidth * 0.5
            bars.append(.init(kind: .overflow, left: Int(x), right: Int(x + slotWidth) - gap, top: top(histogram.overflow),
                              count: histogram.overflow, isSelected: high.map { $0 > hi } ?? true))
        }
        func position(_ price: Double) -> Int {
            binsLeft + Int(((price - lo) / (hi - lo) * Double(binsRight - binsLeft)).rounded())
        }
        let thumbs = [low.map { position(max(lo, min(hi, $0))) } ?? binsLeft,
                      high.map { position(max(lo, min(hi, $0))) } ?? (hasOverflow ? bars.last!.right : binsRight)]
        var averageX: Int?
        if let average = histogram.averageNightlyPrice.map({ Double($0.minorUnits) / 100 }), average >= lo, average <= hi {
            averageX = position(average)
        }
        return Layout(plotLeft: plotLeft, plotRight: plotRight, plotTop: plotTop, baseline: baseline,
                      countAxisMaximum: countAxisMaximum, bars: bars, thumbs: thumbs, averageX: averageX,
                      binsLeft: binsLeft, binsRight: binsRight)
    }

    /// Draws the chart.
    /// - Throws: ``GraphError`` when libgd fails.
    public func render() throws(GraphError) -> GDImage {
        guard (200...4_000).contains(width), (150...3_000).contains(height), (1...4).contains(scale) else {
            throw .badSize("chart size must be 200–4000 × 150–3000 at scale 1–4 (got \(width)×\(height) at \(scale))")
        }
        let s = scale
        let layout = layout()
        let image = try GDImage(width: width * s, height: height * s)
        image.fillRectangle(x1: 0, y1: 0, x2: width * s - 1, y2: height * s - 1, color: Color(hex: 0xFFFFFF))
        let text = TextPainter(image: image, fonts: fonts, scale: s)

        // Title.
        try text.draw(title, x: 16 * s, baseline: 24 * s, size: 13, bold: true, color: Self.ink)
        try text.draw(subtitle, x: 16 * s, baseline: 44 * s, size: 9.5, color: Self.muted)

        // Count grid and labels.
        // Counts are whole: no tick between them.
        for tick in PriceTicks.ticks(from: 0, to: Double(layout.countAxisMaximum), count: min(4, layout.countAxisMaximum))
        where tick == tick.rounded() {
            let y = layout.baseline - Int((tick / Double(layout.countAxisMaximum) * Double(layout.baseline - layout.plotTop)).rounded())
            image.line(x1: layout.plotLeft, y1: y, x2: layout.plotRight, y2: y, color: Self.grid, thickness: s)
            let label = style.grouped(Int(tick))
            try text.draw(label, rightEdge: layout.plotLeft - 8 * s, baseline: y + 4 * s, size: 8, color: Self.muted)
        }

        // Bars.
        for bar in layout.bars where bar.count > 0 {
            let color: Color = bar.kind == .overflow
                ? (bar.isSelected ? Self.overflowSelected : Self.dimmed) : (bar.isSelected ? Self.selected : Self.dimmed)
            image.fillRectangle(x1: bar.left, y1: bar.top, x2: max(bar.left, bar.right - 1), y2: layout.baseline - 1, color: color)
        }
        image.fillRectangle(x1: layout.plotLeft, y1: layout.baseline, x2: layout.plotRight, y2: layout.baseline + s - 1, color: Self.ink)

        // Price ticks on x.
        let lo = Double(histogram.lo.minorUnits) / 100, hi = Double(histogram.hi.minorUnits) / 100
        let hasEndLabel = layout.bars.last?.kind == .overflow
        for tick in PriceTicks.ticks(from: lo, to: hi, count: max(2, (layout.binsRight - layout.binsLeft) / (90 * s)))
        where !(hasEndLabel && Double(layout.binsRight - layout.binsLeft) * (hi - tick) / (hi - lo) < Double(36 * s)) {
            let x = layout.binsLeft + Int(((tick - lo) / (hi - lo) * Double(layout.binsRight - layout.binsLeft)).rounded())
            image.line(x1: x, y1: layout.baseline, x2: x, y2: layout.baseline + 4 * s, color: Self.ink, thickness: s)
            try text.draw(PriceTicks.label(tick, style: style), centre: x, baseline: layout.baseline + 18 * s, size: 8, color: Self.ink)
        }
        for bar in layout.bars where bar.kind != .bin(0) {
            switch bar.kind {
            case .overflow:
                try text.draw(PriceTicks.label(hi, style: style) + "+", centre: (bar.left + bar.right) / 2, baseline: layout.baseline + 18 * s,
                              size: 8, bold: true, color: Self.ink)
            case .underflow:
                try text.draw("<" + PriceTicks.label(lo, style: style), centre: (bar.left + bar.right) / 2, baseline: layout.baseline + 18 * s,
                              size: 8, bold: true, color: Self.ink)
            default: break
            }
        }
        let unit = style.language == .korean
            ? (nights > 1 ? "1박 요금 (숙박 총액 ÷ \(nights)박)" : "1박 요금")
            : (nights > 1 ? "nightly price (stay total ÷ \(nights) nights)" : "nightly price")
        try text.draw(unit, centre: (layout.plotLeft + layout.plotRight) / 2, baseline: layout.baseline + 36 * s, size: 8, color: Self.muted)

        // Average.
        if let x = layout.averageX, let average = histogram.averageNightlyPrice {
            var y = layout.plotTop
            while y < layout.baseline {
                image.line(x1: x, y1: y, x2: x, y2: min(y + 4 * s, layout.baseline), color: Self.ink, thickness: s)
                y += 8 * s
            }
            try text.draw((style.language == .korean ? "평균 " : "avg ") + style.money(average, showsCents: false), x: x + 4 * s, baseline: layout.plotTop + 10 * s, size: 8, color: Self.ink)
        }

        // Slider: the track under the axis, the selected span, and the thumbs.
        let trackY = layout.baseline + 44 * s
        image.line(x1: layout.binsLeft, y1: trackY, x2: layout.bars.last.map { max($0.right, layout.binsRight) } ?? layout.binsRight,
                   y2: trackY, color: Self.dimmed, thickness: 2 * s)
        image.line(x1: layout.thumbs[0], y1: trackY, x2: layout.thumbs[1], y2: trackY, color: Self.selected, thickness: 2 * s)
        for thumb in layout.thumbs {
            image.fillEllipse(x: thumb, y: trackY, width: 12 * s, height: 12 * s, color: Self.ink)
            image.fillEllipse(x: thumb, y: trackY, width: 8 * s, height: 8 * s, color: Color(hex: 0xFFFFFF))
        }
        return image
    }
}

/// Text in TrueType when a font is there, else in gd's built-in font.
struct TextPainter {
    /// The image drawn on; nil for measuring only.
    let image: GDImage?
    let fonts: (regular: String, bold: String)?
    let scale: Int

    func width(_ text: String, size: Double, bold: Bool) throws(GraphError) -> Int {
        guard let fonts else { return text.count * GDImage.builtinCell.width }
        return try GDImage.measure(text, font: bold ? fonts.bold : fonts.regular, size: size * Double(scale)).width
    }

    func draw(_ text: String, x: Int, baseline: Int, size: Double, bold: Bool = false, color: Color) throws(GraphError) {
        guard let image else { return }
        if let fonts {
            try image.text(text, x: x, y: baseline, font: bold ? fonts.bold : fonts.regular, size: size * Double(scale), color: color)
        } else {
            image.builtinText(text, x: x, y: baseline - GDImage.builtinCell.height + 3, color: color)
        }
    }

    func draw(_ text: String, centre: Int, baseline: Int, size: Double, bold: Bool = false, color: Color) throws(GraphError) {
        try draw(text, x: centre - (try width(text, size: size, bold: bold)) / 2, baseline: baseline, size: size, bold: bold, color: color)
    }

    func draw(_ text: String, rightEdge: Int, baseline: Int, size: Double, color: Color) throws(GraphError) {
        try draw(text, x: rightEdge - (try width(text, size: size, bold: false)), baseline: baseline, size: size, color: color)
    }
}

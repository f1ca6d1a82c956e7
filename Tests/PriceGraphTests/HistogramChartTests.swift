import PriceGraph
import StaySearch
import Testing

@Suite struct HistogramChartTests {
    /// 10 bins over $0–$200, 3 above; selected range $50–$120.
    private let histogram = PriceHistogram(
        lo: Money(major: 0), hi: Money(major: 200), counts: [2, 5, 9, 14, 7, 0, 3, 1, 4, 6], underflow: 0, overflow: 3,
        count: 54, averageNightlyPrice: Money(major: 88))

    private func chart(scale: Int, fonts: (regular: String, bold: String)? = FontLocator.sans()) -> HistogramChart {
        var chart = HistogramChart(histogram: histogram, nights: 3, minimumPrice: Money(major: 50), maximumPrice: Money(major: 120),
                                   title: "Zuid · 2024-07-12 → 2024-07-15", subtitle: "2 guests", fonts: fonts)
        chart.scale = scale
        return chart
    }

    @Test(arguments: [1, 2])
    func barsFollowCountsAndTheRangeIsHighlighted(scale: Int) throws {
        try expectBarsDrawnAsCounted(chart(scale: scale), scale: scale)
    }

    /// Reads the PNG back: its size, each bar's height from its count, the highlighted bars, the thumbs.
    private func expectBarsDrawnAsCounted(_ chart: HistogramChart, scale: Int) throws {
        let layout = chart.layout()
        let png = try chart.render().pngData()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try GDImage(png: png)
        #expect(image.width == 800 * scale && image.height == 360 * scale)

        // Each bin spans $20: bins 2…6 ($40–$140) overlap $50–$120 (bin 6 starts at $120, inside the
        // inclusive range); the hi+ bar is not selected.
        let selected = layout.bars.filter(\.isSelected).map(\.kind)
        #expect(selected == [.bin(2), .bin(3), .bin(4), .bin(5), .bin(6)])
        #expect(layout.bars.last?.kind == .overflow && layout.bars.last?.count == 3)

        let plotHeight = Double(layout.baseline - layout.plotTop)
        for bar in layout.bars {
            let expected = Int((Double(bar.count) / Double(layout.countAxisMaximum) * plotHeight).rounded())
            #expect(layout.baseline - bar.top == expected, "\(bar.kind)")
            // Read the bar back from the PNG: its colour runs up from the baseline exactly as high as its count says.
            let x = (bar.left + bar.right) / 2
            var height = 0
            let barColor = image.pixel(x: x, y: layout.baseline - 1)
            while height < layout.baseline - layout.plotTop, image.pixel(x: x, y: layout.baseline - 1 - height) == barColor { height += 1 }
            if bar.count > 0 {
                #expect(abs(height - expected) <= 1, "\(bar.kind): \(height) pixels, expected \(expected)")
                let isPink = barColor.red > 200 && barColor.green < 80
                let isDark = barColor.red > 120 && barColor.green < 40
                #expect(bar.isSelected == (isPink || isDark), "\(bar.kind) colour \(barColor)")
            }
        }
        // The thumbs sit at $50 and $120.
        let span = Double(layout.binsRight - layout.binsLeft)
        #expect(abs(layout.thumbs[0] - layout.binsLeft - Int(span * 50 / 200)) <= 1)
        #expect(abs(layout.thumbs[1] - layout.binsLeft - Int(span * 120 / 200)) <= 1)
        #expect(layout.averageX.map { abs($0 - layout.binsLeft - Int(span * 88 / 200)) <= 1 } == true)
    }

    /// Seen on Albany: with one listing per bin the count axis must not show fractions.
    @Test func countTicksAreWhole() {
        #expect(PriceTicks.ticks(from: 0, to: 1, count: 1) == [0, 1])
        #expect(PriceTicks.ticks(from: 0, to: 3, count: 3) == [0, 1, 2, 3])
    }

    @Test func drawsWithTheBuiltInFontWhenThereIsNoTrueTypeFont() throws {
        let chart = chart(scale: 1, fonts: nil)
        try expectBarsDrawnAsCounted(chart, scale: 1)
        // The title and labels are there: dark ink above the plot, where only text is drawn.
        let image = try GDImage(png: try chart.render().pngData())
        var ink = 0
        for y in 0..<chart.layout().plotTop {
            for x in 0..<image.width {
                let color = image.pixel(x: x, y: y)
                if color.red < 100 && color.green < 100 && color.blue < 100 { ink += 1 }
            }
        }
        #expect(ink > 100, "only \(ink) dark pixels above the plot")
    }

    @Test func refusesSizesOutOfRange() {
        var chart = chart(scale: 1)
        chart.width = 50
        #expect(throws: GraphError.self) { try chart.render() }
        #expect(throws: GraphError.cannotDecodePNG) { try GDImage(png: [1, 2, 3]) }
    }

    @Test func ticksAreRound() {
        #expect(PriceTicks.ticks(from: 19, to: 280, count: 5) == [50, 100, 150, 200, 250])
        #expect(PriceTicks.ticks(from: 0, to: 1_000, count: 4) == [0, 250, 500, 750, 1_000])
        #expect(PriceTicks.label(1_250) == "$1,250")
        #expect(PriceTicks.label(12.5) == "$12.50")
    }
}

@Suite struct TextHistogramTests {
    @Test func rendersBarsWithTheSelectedRangeMarked() {
        let histogram = PriceHistogram(lo: Money(major: 0), hi: Money(major: 100), counts: [1, 4, 8, 2], underflow: 0, overflow: 2,
                                       count: 17, averageNightlyPrice: Money(major: 60))
        let text = TextHistogram.render(histogram, minimumPrice: Money(major: 30), maximumPrice: Money(major: 70), width: 22, rows: 2)
        // Checked by hand: 4 bins of 5 columns in 22 − 2 (gap and hi+); bin 0 (1 of 8, 2 rows) is 2/8
        // of a cell; bins 1 and 2 overlap $30–$70; the labels fill the 22 columns.
        #expect(text == [
            "          █████",
            "▂▂▂▂▂██████████▄▄▄▄▄ ▄",
            "─────━━━━━━━━━━───── ─",
            "$0      $100 | 2 above",
        ].joined(separator: "\n") + "\n")
    }

    @Test func fitsManyBinsIntoFewColumns() {
        let histogram = PriceHistogram(lo: Money(major: 0), hi: Money(major: 300), counts: Array(repeating: 1, count: 300), underflow: 0,
                                       overflow: 0, count: 300, averageNightlyPrice: Money(major: 150))
        let lines = TextHistogram.render(histogram, minimumPrice: nil, maximumPrice: nil, width: 40).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines[lines.count - 2].allSatisfy { $0 == "━" })
    }
}

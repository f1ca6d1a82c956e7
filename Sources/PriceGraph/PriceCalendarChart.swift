import StaySearch

/// A price calendar drawn as a PNG: a grid per month, each check-in day with its number, how many stays
/// there are and the lowest total, the cheaper days greener; days with nothing to book grey.
public struct PriceCalendarChart {
    public var months: [PriceCalendarMonth]
    public var title: String
    public var nights: Int
    public var scale = 1
    public var fonts: (regular: String, bold: String)?

    /// Creates a chart.
    public init(months: [PriceCalendarMonth], title: String, nights: Int, fonts: (regular: String, bold: String)?) {
        self.months = months
        self.title = title
        self.nights = nights
        self.fonts = fonts
    }

    static let cellWidth = 72, cellHeight = 50, monthGap = 24, margin = 16
    static let cheap = (red: 0xC8, green: 0xE6, blue: 0xC9), dear = (red: 0xFF, green: 0xE0, blue: 0xB2)
    static let empty = Color(hex: 0xEEEEEE), closed = Color(hex: 0xFAFAFA)

    /// Size in output pixels.
    public var size: (width: Int, height: Int) {
        let columns = min(3, max(1, months.count))
        let rows = (months.count + columns - 1) / columns
        let monthWidth = 7 * Self.cellWidth, monthHeight = 40 + 6 * Self.cellHeight
        return ((2 * Self.margin + columns * monthWidth + (columns - 1) * Self.monthGap) * scale,
                (56 + rows * (monthHeight + Self.monthGap) + 24) * scale)
    }

    /// The fill of a day with stays whose lowest total is `lowest`, between the calendar's cheapest and dearest.
    static func fill(lowest: Int64, range: ClosedRange<Int64>) -> Color {
        let share = range.upperBound == range.lowerBound ? 0 : Double(lowest - range.lowerBound) / Double(range.upperBound - range.lowerBound)
        func mix(_ a: Int, _ b: Int) -> UInt8 { UInt8(Double(a) + (Double(b) - Double(a)) * share) }
        return Color(red: mix(cheap.red, dear.red), green: mix(cheap.green, dear.green), blue: mix(cheap.blue, dear.blue))
    }

    /// Draws the chart.
    public func render() throws(GraphError) -> GDImage {
        let s = scale
        let (width, height) = size
        let image = try GDImage(width: width, height: height)
        image.fillRectangle(x1: 0, y1: 0, x2: width - 1, y2: height - 1, color: Color(hex: 0xFFFFFF))
        let text = TextPainter(image: image, fonts: fonts, scale: s)
        try text.draw(title, x: Self.margin * s, baseline: 28 * s, size: 12, bold: true, color: HistogramChart.ink)
        let lowests = months.flatMap { $0.weeks.joined().compactMap { $0?.day?.lowest?.minorUnits } }
        let range = (lowests.min() ?? 0)...(lowests.max() ?? 0)
        let columns = min(3, max(1, months.count))
        for (position, month) in months.enumerated() {
            let left = (Self.margin + (position % columns) * (7 * Self.cellWidth + Self.monthGap)) * s
            let top = (56 + (position / columns) * (40 + 6 * Self.cellHeight + Self.monthGap)) * s
            try text.draw(month.title, x: left, baseline: top + 14 * s, size: 11, bold: true, color: HistogramChart.ink)
            for (column, name) in month.weekdayNames.enumerated() {
                try text.draw(name, centre: left + (column * Self.cellWidth + Self.cellWidth / 2) * s, baseline: top + 34 * s,
                              size: 8, color: HistogramChart.muted)
            }
            for (row, week) in month.weeks.enumerated() {
                for (column, cell) in week.enumerated() {
                    guard let cell else { continue }
                    let x = left + column * Self.cellWidth * s, y = top + (40 + row * Self.cellHeight) * s
                    let day = cell.day
                    let fill = day?.lowest.map { Self.fill(lowest: $0.minorUnits, range: range) }
                        ?? (day?.status == .open ? Self.empty : Self.closed)
                    image.fillRectangle(x1: x + s, y1: y + s, x2: x + Self.cellWidth * s - s, y2: y + Self.cellHeight * s - s, color: fill)
                    let bookable = (day?.count ?? 0) > 0
                    let ink = bookable ? HistogramChart.ink : HistogramChart.muted
                    try text.draw(String(cell.number), x: x + 6 * s, baseline: y + 15 * s, size: 9, bold: bookable, color: ink)
                    guard let day else { continue }
                    try text.draw(month.countText(day), rightEdge: x + Self.cellWidth * s - 6 * s, baseline: y + 15 * s, size: 7,
                                  color: HistogramChart.muted)
                    let lowest = month.lowestText(day)
                    if !lowest.isEmpty {
                        try text.draw(lowest, x: x + 6 * s, baseline: y + 38 * s, size: 9, bold: true, color: Color(hex: 0x1B5E20))
                    }
                }
            }
        }
        let korean = months.first?.style.language == .korean
        let legend = korean
            ? "오른쪽 위: 숙소 수 · 아래: 최저 총액 · 초록: 저렴 · 회색: 없음"
            : "top right: stays · below: lowest total · greener: cheaper · grey: none"
        try text.draw(legend, x: Self.margin * s, baseline: height - 10 * s, size: 8, color: HistogramChart.muted)
        return image
    }
}

import StaySearch

/// Months of a listing's calendar drawn as a PNG: a grid per month, each day coloured by its status
/// (available, booked, unpriced, no calendar row, outside the calendar, past) with its price.
public struct CalendarChart {
    public var months: [CalendarMonth]
    public var title: String
    public var scale = 1
    public var fonts: (regular: String, bold: String)?

    /// Creates a chart.
    public init(months: [CalendarMonth], title: String, fonts: (regular: String, bold: String)?) {
        self.months = months
        self.title = title
        self.fonts = fonts
    }

    static let cellWidth = 64, cellHeight = 44, monthGap = 24, margin = 16
    static let fills: [NightStatus: Color] = [
        .available: Color(hex: 0xE8F5E9), .booked: Color(hex: 0xE0E0E0), .unpriced: Color(hex: 0xFFF3CD), .outsideCalendar: Color(hex: 0xFAFAFA),
        .noCalendarRow: Color(hex: 0xFAFAFA), .past: Color(hex: 0xF0F0F0),
    ]

    /// Size in output pixels.
    public var size: (width: Int, height: Int) {
        let columns = min(3, months.count)
        let rows = (months.count + columns - 1) / max(columns, 1)
        let monthWidth = 7 * Self.cellWidth, monthHeight = 40 + 6 * Self.cellHeight
        return ((2 * Self.margin + columns * monthWidth + (columns - 1) * Self.monthGap) * scale,
                (56 + rows * (monthHeight + Self.monthGap) + 24) * scale)
    }

    /// Draws the chart.
    public func render() throws(GraphError) -> GDImage {
        let s = scale
        let (width, height) = size
        let image = try GDImage(width: width, height: height)
        image.fillRectangle(x1: 0, y1: 0, x2: width - 1, y2: height - 1, color: Color(hex: 0xFFFFFF))
        let text = TextPainter(image: image, fonts: fonts, scale: s)
        try text.draw(title, x: Self.margin * s, baseline: 28 * s, size: 12, bold: true, color: HistogramChart.ink)
        let columns = min(3, months.count)
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
                    image.fillRectangle(x1: x + s, y1: y + s, x2: x + Self.cellWidth * s - s, y2: y + Self.cellHeight * s - s,
                                        color: Self.fills[cell.status]!)
                    let ink = cell.status == .available ? HistogramChart.ink : HistogramChart.muted
                    try text.draw(String(cell.day.components.day), x: x + 6 * s, baseline: y + 16 * s, size: 9, bold: cell.status == .available, color: ink)
                    if let price = cell.price, cell.status != .past {
                        try text.draw(month.compact(price), x: x + 6 * s, baseline: y + 34 * s, size: 8,
                                      color: cell.status == .available ? Color(hex: 0x1B5E20) : HistogramChart.muted)
                    }
                    if cell.status == .booked {
                        image.line(x1: x + 4 * s, y1: y + Self.cellHeight * s - 6 * s, x2: x + Self.cellWidth * s - 6 * s, y2: y + 6 * s,
                                   color: Color(hex: 0xBDBDBD), thickness: s)
                    }
                }
            }
        }
        let legend = months.first?.style.language == .korean
            ? "초록: 예약 가능   회색, 줄 그음: 예약됨   노랑: 가격 없음   빈칸: 달력 행 없음, 달력 밖   옅은 회색, 요금 없음: 지난 날"
            : "green: available   grey, struck through: booked   yellow: unpriced   blank: no calendar row, outside the calendar   pale grey, no price: past"
        try text.draw(legend,
                      x: Self.margin * s, baseline: height - 10 * s, size: 8, color: HistogramChart.muted)
        return image
    }
}

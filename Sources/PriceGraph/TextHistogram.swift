import StaySearch

/// The price histogram in a terminal: Unicode block bars, the selected price range marked under
/// them, and the price at each end; fitted to a width in columns.
public enum TextHistogram {
    static let levels: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Renders `histogram` in at most `width` columns (at least 20) and `rows` rows of bars.
    /// - Parameters:
    ///   - minimumPrice: the selected range's low end, if any.
    ///   - maximumPrice: the selected range's high end, if any.
    /// - Returns: lines ending in newlines.
    public static func render(_ histogram: PriceHistogram, minimumPrice: Money?, maximumPrice: Money?,
                              width: Int, rows: Int = 6, style: DisplayStyle = .standard) -> String {
        guard histogram.count > 0 else {
            return style.language == .korean ? "(가격 외의 조건에 맞는 숙소가 없습니다)\n" : "(no listing matches the filters other than price)\n"
        }
        let width = max(width, 20)
        let overflowColumns = histogram.overflow > 0 ? 2 : 0          // a gap and the "hi+" bar
        let bins = histogram.counts.count
        let available = width - overflowColumns
        // Columns per bin, or bins per column when there are more bins than columns.
        let perBin = max(1, available / bins)
        let binsPerColumn = (bins + available - 1) / available
        var columns: [(count: Int, isSelected: Bool)] = []
        let lo = histogram.lo.minorUnits, hi = histogram.hi.minorUnits
        func selected(_ from: Int64, _ to: Int64) -> Bool {
            (minimumPrice.map { to > $0.minorUnits } ?? true) && (maximumPrice.map { from <= $0.minorUnits } ?? true)
        }
        var bin = 0
        while bin < bins {
            let group = bin..<min(bins, bin + binsPerColumn)
            let count = group.reduce(0) { $0 + histogram.counts[$1] }
            let from = lo + (hi - lo) * Int64(group.lowerBound) / Int64(bins)
            let to = lo + (hi - lo) * Int64(group.upperBound) / Int64(bins)
            for _ in 0..<(binsPerColumn == 1 ? perBin : 1) { columns.append((count, selected(from, to))) }
            bin = group.upperBound
        }
        let binColumns = columns.count
        if histogram.overflow > 0 {
            columns.append((0, false))
            columns.append((histogram.overflow, maximumPrice.map { $0.minorUnits > hi } ?? true))
        }
        let tallest = max(1, columns.map(\.count).max() ?? 1)
        var output = ""
        for row in (0..<rows).reversed() {
            var line = ""
            for column in columns {
                let eighths = column.count == 0 ? 0 : max(1, column.count * rows * 8 / tallest)
                line.append(levels[min(8, max(0, eighths - row * 8))])
            }
            output += line.trimmingTrailingSpaces + "\n"
        }
        // The range marker: ━ under selected columns, ─ under the rest.
        output += String(columns.enumerated().map { index, column in
            index == binColumns && histogram.overflow > 0 ? " " : (column.isSelected ? "━" : "─")
        }) + "\n"
        let left = style.money(histogram.lo, showsCents: false)
        let above = style.language == .korean ? " | 그 이상 \(histogram.overflow)" : " | \(histogram.overflow) above"
        let right = style.money(histogram.hi, showsCents: false) + (histogram.overflow > 0 ? above : "")
        let padding = max(1, columns.count - left.count - right.count)
        output += left + String(repeating: " ", count: padding) + right + "\n"
        return output
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

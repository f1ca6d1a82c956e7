import PriceGraph
import StaySearch
import Testing

@Suite struct CalendarMonthTests {
    /// A listing whose calendar starts on 2025-03-03 (a Monday): booked on the 4th, unpriced on the 5th.
    private let index: ListingIndex = {
        var builder = IndexBuilder()
        let handle = try! builder.addListing(ListingRecord(id: 1, name: "A", region: RegionPath(city: "C", neighbourhood: "N"),
                                                            roomType: "Private room", accommodates: 2, price: nil))
        let start = Day(iso: "2025-03-03")!
        for offset in 0..<10 {
            builder.addNight(CalendarNight(day: start.advanced(by: offset), isAvailable: offset != 1,
                                           price: offset == 2 ? nil : Money(major: offset < 5 ? 80 : 12_500)), to: handle)
        }
        return builder.build().index
    }()

    @Test func printsLikeAPrintedCalendar() {
        let month = CalendarMonth(index: index, row: 0, year: 2025, month: 3, firstWeekday: 0)
        #expect(month.text() == [
            "March 2025",
            "Mon        Tue        Wed        Thu        Fri        Sat        Sun",
            "                                                        1 ·        2 ·",
            " 3 ● $80    4 × $80    5 ?        6 ● $80    7 ● $80    8 ● $13k   9 ● $13k",
            "10 ● $13k  11 ● $13k  12 ● $13k  13 ·       14 ·       15 ·       16 ·",
            "17 ·       18 ·       19 ·       20 ·       21 ·       22 ·       23 ·",
            "24 ·       25 ·       26 ·       27 ·       28 ·       29 ·       30 ·",
            "31 ·",
        ].joined(separator: "\n") + "\n")
        let sundayFirst = CalendarMonth(index: index, row: 0, year: 2025, month: 3, firstWeekday: 6)
        #expect(sundayFirst.weekdayNames.first == "Sun" && sundayFirst.weeks.count == 6)
        #expect(sundayFirst.weeks[0].compactMap { $0 }.map { $0.day.components.day } == [1])
    }

    @Test func printsInKoreanWithWeeksFromSunday() throws {
        let style = try DisplayStyle(locale: "ko", currency: "KRW")
        let month = CalendarMonth(index: index, row: 0, year: 2025, month: 3, firstWeekday: style.firstWeekday, style: style)
        let lines = month.text().split(separator: "\n").map(String.init)
        #expect(lines[0] == "2025년 3월")
        // Hangul takes two columns: each name and its padding make 11 columns, as the cells below.
        #expect(lines[1] == "일         월         화         수         목         금         토")
        #expect(lines[3] == " 2 ·        3 ● ₩80    4 × ₩80    5 ?        6 ● ₩80    7 ● ₩80    8 ● ₩12,500")
        #expect(CalendarMonth.legend(style) == "● 예약 가능   × 예약됨   ? 가격 없음   ○ 달력 행 없음   - 지난 날   · 달력 밖")
    }

    /// Korean words are drawn with a font that has Hangul: Noto Sans CJK, which the set-up installs.
    @Test func drawsKoreanWithAFontThatHasHangul() throws {
        let style = try DisplayStyle(locale: "ko", currency: nil)
        #expect(FontLocator.hasFont(for: .korean), "Noto Sans CJK is not installed (fonts-noto-cjk)")
        let fonts = try #require(FontLocator.sans(for: .korean))
        #expect(fonts.regular.hasSuffix("NotoSansCJK-Regular.ttc"))
        let months = [CalendarMonth(index: index, row: 0, year: 2025, month: 3, firstWeekday: style.firstWeekday, style: style)]
        let chart = CalendarChart(months: months, title: "종로 한옥 (1)", fonts: fonts)
        let image = try GDImage(png: try chart.render().pngData())
        #expect(image.width == chart.size.width && image.height == chart.size.height)
    }

    /// Nights up to a billion a night print in millions, and draw.
    @Test func printsAndDrawsPricesUpToABillion() throws {
        var builder = IndexBuilder()
        let handle = try builder.addListing(ListingRecord(id: 2, name: "Villa", region: RegionPath(city: "C", neighbourhood: "N"),
                                                           roomType: "Entire home/apt", accommodates: 8, price: nil))
        let start = Day(iso: "2025-03-03")!
        for (offset, cents) in [250_000_000_00, 1_000_000_000_00, 21_474_836_48, 99_999_999_99].enumerated() {
            builder.addNight(CalendarNight(day: start.advanced(by: offset), isAvailable: true, price: Money(minorUnits: Int64(cents))), to: handle)
        }
        let villa = builder.build().index
        let month = CalendarMonth(index: villa, row: 0, year: 2025, month: 3, firstWeekday: 0)
        let week = month.text().split(separator: "\n")[3].split(separator: " ").filter { $0.hasPrefix("$") }
        #expect(week == ["$250M", "$1000M", "$21M", "$100M"], "\(month.text())")
        let image = try GDImage(png: try CalendarChart(months: [month], title: "Villa (2)", fonts: FontLocator.sans()).render().pngData())
        #expect(image.width > 0)
    }

    @Test func drawsThePNG() throws {
        let months = [CalendarMonth(index: index, row: 0, year: 2025, month: 3, firstWeekday: 0)]
        var chart = CalendarChart(months: months, title: "A (1)", fonts: FontLocator.sans())
        chart.scale = 2
        let image = try GDImage(png: try chart.render().pngData())
        #expect(image.width == chart.size.width && image.height == chart.size.height)
        #expect(image.width == (2 * 16 + 7 * 64) * 2)
    }
}

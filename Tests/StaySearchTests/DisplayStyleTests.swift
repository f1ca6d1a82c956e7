import StaySearch
import Testing

/// How prices, dates and words are written for people in each language and currency.
@Suite struct DisplayStyleTests {
    @Test func moneyIsWrittenInTheCurrencysWay() throws {
        let dollars = DisplayStyle.standard, won = try DisplayStyle(locale: "ko", currency: nil)
        #expect(won.currency == "KRW" && won.language == .korean)
        #expect(dollars.money(Money(minorUnits: 123_456)) == "$1,234.56")
        #expect(dollars.money(Money(minorUnits: 123_456), showsCents: false) == "$1,235")
        // Won are whole: no decimals ever, rounded half up.
        #expect(won.money(Money(minorUnits: 8_500_000)) == "₩85,000")
        #expect(won.money(Money(minorUnits: 8_500_050)) == "₩85,001")
        #expect(won.money(Money(minorUnits: 8_500_049)) == "₩85,000")
        #expect(try DisplayStyle(locale: "en", currency: "eur").money(Money(minorUnits: 7_000)) == "€70.00")
        #expect(try DisplayStyle(locale: "en", currency: "CHF").money(Money(minorUnits: 7_000)) == "CHF 70.00")
        #expect(try DisplayStyle(locale: "en", currency: "KRW").money(Money(minorUnits: -150)) == "-₩2")
        #expect(won.grouped(1_234_567) == "1,234,567" && won.grouped(-999) == "-999" && won.grouped(0) == "0")
    }

    @Test func datesMonthsAndWeekdaysInEachLanguage() throws {
        let korean = try DisplayStyle(locale: "ko-KR", currency: nil)
        let day = Day(iso: "2024-07-12")!
        #expect(korean.monthTitle(year: 2024, month: 7) == "2024년 7월" && DisplayStyle.standard.monthTitle(year: 2024, month: 7) == "July 2024")
        #expect(korean.shortDate(day) == "7월 12일" && DisplayStyle.standard.shortDate(day) == "Jul 12")
        #expect((0..<7).map { korean.weekdayName(($0 + korean.firstWeekday) % 7) } == ["일", "월", "화", "수", "목", "금", "토"])
        #expect(DisplayStyle.standard.firstWeekday == 0 && korean.firstWeekday == 6)
    }

    @Test func acceptLanguageChoosesByQuality() {
        #expect(DisplayStyle.language(acceptedBy: "ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7") == .korean)
        #expect(DisplayStyle.language(acceptedBy: "en-GB, ko;q=0.5") == .english)
        #expect(DisplayStyle.language(acceptedBy: "fr-FR, ko;q=0.5, en;q=0.4") == .korean)
        #expect(DisplayStyle.language(acceptedBy: "fr-FR,de") == nil)
        #expect(DisplayStyle.language(acceptedBy: "ko;q=0, en;q=0.1") == .english)
        #expect(DisplayStyle.language(acceptedBy: "") == nil)
    }

    @Test func badSettingsSayWhatIsTaken() {
        #expect(throws: StyleError("unknown locale 'fr'; use en or ko")) { try DisplayStyle(locale: "fr", currency: nil) }
        #expect(throws: StyleError("unknown currency 'wons'; use a three-letter code such as USD, EUR or KRW")) {
            try DisplayStyle(locale: nil, currency: "wons")
        }
    }
}

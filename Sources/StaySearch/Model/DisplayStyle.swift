/// How prices, dates, months and weekdays are written for a person to read: the language (`en`, `ko`) and
/// the currency the data's prices are in. Display only: a price is never converted.
public struct DisplayStyle: Sendable, Equatable {
    /// The languages text is written in.
    public enum Language: String, Sendable, CaseIterable {
        case english = "en"
        case korean = "ko"
    }

    /// The language.
    public var language: Language
    /// The ISO 4217 code of the prices' currency, upper case (`USD`, `EUR`, `KRW`).
    public var currency: String

    /// English and US dollars: what staysearch writes unless told otherwise.
    public static let standard = DisplayStyle(language: .english, currency: "USD")

    /// Creates a style.
    public init(language: Language, currency: String) {
        self.language = language
        self.currency = currency.uppercased()
    }

    /// Reads `--locale` and `--currency` values: a language (`en`, `ko`, or a tag such as `ko-KR`) and a
    /// three-letter currency code; the currency defaults to the language's (KRW for Korean, USD otherwise).
    /// - Throws: a message naming what is accepted.
    public init(locale: String?, currency: String?) throws(StyleError) {
        var language = Language.english
        if let locale {
            guard let parsed = DisplayStyle.language(ofTag: locale) else { throw StyleError("unknown locale '\(locale)'; use en or ko") }
            language = parsed
        }
        if let currency {
            guard currency.count == 3, currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) }) else {
                throw StyleError("unknown currency '\(currency)'; use a three-letter code such as USD, EUR or KRW")
            }
        }
        self.init(language: language, currency: currency ?? (language == .korean ? "KRW" : "USD"))
    }

    /// The language of a language tag (`ko`, `ko-KR`, `en-GB`), if it is one of ours.
    public static func language(ofTag tag: String) -> Language? {
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return Language(rawValue: primary)
    }

    /// The first of our languages an `Accept-Language` header asks for, by its q-values (nil: none).
    public static func language(acceptedBy header: String) -> Language? {
        var best: (quality: Double, language: Language)?
        for (position, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            guard let tag = parts.first, let language = language(ofTag: tag) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") { quality = Double(parameter.dropFirst(2)) ?? 0 }
            // Equal qualities keep the earlier one.
            if quality > 0, best == nil || quality > best!.quality { best = (quality - Double(position) * 1e-9, language) }
        }
        return best?.language
    }

    // MARK: Money

    /// The currency's symbol as written before an amount (`$`, `€`, `₩`), or its code and a space.
    public var currencySymbol: String {
        switch currency {
        case "USD": return "$"
        case "EUR": return "€"
        case "GBP": return "£"
        case "JPY": return "¥"
        case "KRW": return "₩"
        default: return currency + " "
        }
    }

    /// Whether the currency is written in whole units (won, yen): no cents ever shown.
    public var hasWholeUnitsOnly: Bool { currency == "KRW" || currency == "JPY" }

    /// `money` written for a person: symbol, thousands grouped with commas, cents unless `showsCents` is
    /// false or the currency has none (then rounded half up to the whole unit).
    public func money(_ money: Money, showsCents: Bool = true) -> String {
        let plain = money.formatted(showsCents: showsCents && !hasWholeUnitsOnly)
        return plain.replacingFirstDollar(with: currencySymbol)
    }

    /// A whole number with its thousands grouped (`12,345`).
    public func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }

    // MARK: Dates

    private static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                        "October", "November", "December"]
    private static let englishWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let koreanWeekdays = ["월", "화", "수", "목", "금", "토", "일"]

    /// A month's title: `July 2024`, `2024년 7월`.
    public func monthTitle(year: Int, month: Int) -> String {
        switch language {
        case .english: return "\(DisplayStyle.englishMonths[month - 1]) \(year)"
        case .korean: return "\(year)년 \(month)월"
        }
    }

    /// A day without its year: `Jul 12`, `7월 12일`.
    public func shortDate(_ day: Day) -> String {
        let (_, month, date) = day.components
        switch language {
        case .english: return "\(DisplayStyle.englishMonths[month - 1].prefix(3)) \(date)"
        case .korean: return "\(month)월 \(date)일"
        }
    }

    /// A weekday's short name, 0 = Monday: `Mon`, `월`.
    public func weekdayName(_ weekdayFromMonday: Int) -> String {
        (language == .korean ? DisplayStyle.koreanWeekdays : DisplayStyle.englishWeekdays)[weekdayFromMonday]
    }

    /// The weekday a calendar's weeks start on, 0 = Monday: Sunday (6) in Korean, as Korean calendars do.
    public var firstWeekday: Int { language == .korean ? 6 : 0 }
}

/// A `--locale` or `--currency` value that is not one.
public struct StyleError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

private extension String {
    func replacingFirstDollar(with symbol: String) -> String {
        guard let dollar = firstIndex(of: "$") else { return self }
        return String(self[..<dollar]) + symbol + String(self[index(after: dollar)...])
    }
}

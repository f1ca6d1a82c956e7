import ArgumentParser
import StaySearch

/// How output for people is written: `--locale en|ko` and `--currency CODE` (display only; prices are never
/// converted). JSON and CSV are not affected.
struct DisplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Language of tables, calendars and charts: en or ko.", valueName: "LOCALE"))
    var locale: String?

    @Option(help: ArgumentHelp("Currency the data's prices are in, for display: USD, EUR, KRW… (default: USD; KRW with ko).",
                               valueName: "CODE"))
    var currency: String?

    /// The style the options ask for.
    var style: DisplayStyle {
        get throws {
            do { return try DisplayStyle(locale: locale, currency: currency) } catch { throw ValidationError(error.description) }
        }
    }

    func validate() throws { _ = try style }
}

import StaySearch

/// One key of a search: its names on every surface (JSON lines, URL query strings, command-line flags), the
/// shape of its value, its bounds, its help text, and how it sets a ``SearchQuery``.
///
/// ``QuerySchema`` lists them all; every reader, the OpenAPI document and the docs' table are made from it.
package struct QueryParameter: Sendable {
    /// The shape of a value.
    package enum Kind: Sendable, Equatable {
        /// Free text (a region, a room type).
        case text
        /// An ISO date, `YYYY-MM-DD`.
        case date
        /// A whole number, with its bounds when it has them.
        case whole(ClosedRange<Int>?)
        /// A price, exact to the cent.
        case money
        /// A number in halves (bathrooms).
        case halves
        /// A distance in kilometres, above zero.
        case kilometres
        /// A flag: true or false (on the command line, present or not).
        case flag
        /// One of fixed names.
        case choice([String])
        /// A list of names; repeated keys add to it. `commaSeparated` lists also split each value at commas.
        case names(choices: [String]?, commaSeparated: Bool)
        /// Numbers separated by commas (in JSON, an array of them), e.g. `SOUTH,WEST,NORTH,EAST`.
        case coordinates(count: Int)
    }

    /// The key in JSON lines and URL query strings, e.g. `min_price`.
    package let key: String
    /// The command-line flag without its dashes, e.g. `min-price`.
    package let flag: String
    package let kind: Kind
    /// One sentence for people.
    package let help: String
    /// What the value looks like in help text, e.g. `AMOUNT`.
    package let valueName: String
    /// The value taken when the key is not given, as text, if there is one.
    package let defaultText: String?
    /// Sets the query's field from a value already of this parameter's shape.
    let set: @Sendable (inout SearchQuery, Value) throws -> Void

    /// A value read from any surface, in the shape of ``Kind``.
    package enum Value: Sendable {
        case text(String)
        /// A number's text, so that prices stay exact.
        case number(String)
        case flag(Bool)
        case texts([String])
        case numbers([Double])
    }

    package init(_ key: String, flag: String? = nil, _ kind: Kind, _ help: String, valueName: String? = nil,
                 default defaultText: String? = nil, set: @escaping @Sendable (inout SearchQuery, Value) throws -> Void) {
        self.key = key
        self.flag = flag ?? key.split(separator: "_").joined(separator: "-")
        self.kind = kind
        self.help = help
        self.valueName = valueName ?? Self.valueName(of: kind)
        self.defaultText = defaultText
        self.set = set
    }

    /// Whether the key may be given more than once (each adds to a list).
    package var isList: Bool {
        if case .names = kind { return true }
        return false
    }

    private static func valueName(of kind: Kind) -> String {
        switch kind {
        case .text: return "NAME"
        case .date: return "YYYY-MM-DD"
        case .whole: return "N"
        case .money: return "AMOUNT"
        case .halves: return "X"
        case .kilometres: return "KM"
        case .flag: return ""
        case .choice: return "NAME"
        case .names: return "NAME"
        case .coordinates(let count): return count == 4 ? "SOUTH,WEST,NORTH,EAST" : "LAT,LON"
        }
    }
}

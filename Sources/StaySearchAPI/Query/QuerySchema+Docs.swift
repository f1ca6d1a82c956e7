extension QuerySchema {
    /// The docs' parameter table (Markdown): every key with its flag, value, default and meaning.
    package static var markdownTable: String {
        var lines = ["| Key (JSON, URL) | Flag | Value | Default | Meaning |", "|---|---|---|---|---|"]
        for parameter in search {
            let flag = parameter.kind == .flag ? "`--\(parameter.flag)`" : "`--\(parameter.flag) \(parameter.valueName)`"
            lines.append("| `\(parameter.key)` | \(flag) | \(parameter.valueDescription) | \(parameter.defaultText.map { "`\($0)`" } ?? "") | \(parameter.help.replacingPipes) |")
        }
        for parameter in chart {
            lines.append("| `\(parameter.key)` | `--\(parameter.key) \(parameter.valueName)` | whole number, \(parameter.range.lowerBound)–\(parameter.range.upperBound) | | \(parameter.help) (charts only) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension QueryParameter {
    /// The value's shape and bounds, for people.
    var valueDescription: String {
        switch kind {
        case .text: return "text"
        case .date: return "date, YYYY-MM-DD"
        case .whole(let range):
            guard let range else { return "whole number" }
            return range.upperBound == Int.max ? "whole number, \(range.lowerBound) or more" : "whole number, \(range.lowerBound)–\(range.upperBound)"
        case .money: return "amount, 0 or more, to the cent"
        case .halves: return "number in halves, 0 or more"
        case .kilometres: return "kilometres, above 0"
        case .flag: return "true or false"
        case .choice(let names): return "one of " + names.map { "`\($0)`" }.joined(separator: ", ")
        case .names(let choices, let commaSeparated):
            let list = commaSeparated ? "list (JSON array, repeated key, or commas)" : "list (JSON array or repeated key)"
            guard let choices else { return list }
            return list + " of " + choices.map { "`\($0)`" }.joined(separator: ", ")
        case .coordinates(let count): return count == 4 ? "4 numbers, south,west,north,east (JSON array)" : "2 numbers, lat,lon (JSON array)"
        }
    }
}

private extension String {
    var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}

extension QuerySchema {
    /// The keys of the routes that take more than a search's keys, as a Markdown table for the docs.
    package static var routeKeysTable: String {
        var lines = ["| Route | Key | Value | Meaning |", "|---|---|---|---|"]
        let routes: [(String, [RouteParameter])] = [
            ("`GET /v1/regions`", regions), ("`GET /v1/listings/{id}/calendar`, `calendar.png`", calendar),
            ("`GET /v1/price-calendar`, `price-calendar.png`", priceCalendarRoute),
            ("`GET /v1/histogram.png`, `/v1/map.png`, `calendar.png`, `price-calendar.png`", display), ("every `GET /v1/…`", [minimumPosition]),
        ]
        for (route, parameters) in routes {
            for parameter in parameters {
                lines.append("| \(route) | `\(parameter.key)` | \(parameter.valueDescription) | \(parameter.help.replacingPipes) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension RouteParameter {
    /// The value's shape and bounds, for people.
    var valueDescription: String {
        switch kind {
        case let .text(pattern, shape): return pattern == nil ? "text" : shape ?? "text"
        case let .whole(range):
            return range.upperBound == Int.max ? "whole number, \(range.lowerBound) or more" : "whole number, \(range.lowerBound)–\(range.upperBound)"
        case let .choice(names): return "one of " + names.map { "`\($0)`" }.joined(separator: ", ")
        }
    }
}

extension ErrorCode {
    /// Every code as a Markdown table for docs/errors.md.
    package static var markdownTable: String {
        var lines = ["| Code | Status | Type | When |", "|---|---|---|---|"]
        for code in allCases {
            lines.append("| `\(code.rawValue)` | \(code.status) | `\(code.kind.rawValue)` | \(code.summary.replacingPipes) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

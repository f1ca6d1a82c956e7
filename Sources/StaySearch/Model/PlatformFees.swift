import Foundation

/// The platform's settings that price a stay beside the listing's own fees: its service fee, added to
/// every dated stay's trip price, and each city's tax, shown in quotes on top of it (``TripPrice``).
public struct PlatformFees: Sendable, Equatable {
    /// The service fee in basis points (14.2 % is 1,420).
    public var serviceFeeBasisPoints: Int
    /// Each city's tax in basis points, by the city's name folded (``TextFolding``).
    public private(set) var taxBasisPointsByCity: [String: Int]
    /// Each city's name as given, by its folded name (for showing the settings).
    public private(set) var cityNames: [String: String]

    /// No service fee and no taxes.
    public init(serviceFeeBasisPoints: Int = 0) {
        self.serviceFeeBasisPoints = serviceFeeBasisPoints
        taxBasisPointsByCity = [:]
        cityNames = [:]
    }

    /// Sets `city`'s tax to `basisPoints`.
    public mutating func setTax(city: String, basisPoints: Int) {
        let key = TextFolding.fold(city)
        taxBasisPointsByCity[key] = basisPoints
        cityNames[key] = city
    }

    /// Removes `city`'s tax.
    public mutating func removeTax(city: String) {
        let key = TextFolding.fold(city)
        taxBasisPointsByCity[key] = nil
        cityNames[key] = nil
    }

    /// The tax of `city` in basis points (0 when none is set).
    public func taxBasisPoints(city: String) -> Int {
        taxBasisPointsByCity.isEmpty ? 0 : taxBasisPointsByCity[TextFolding.fold(city)] ?? 0
    }

    /// The cities with a tax, by name as given, and their basis points, by name.
    public var taxes: [(city: String, basisPoints: Int)] {
        taxBasisPointsByCity.map { (cityNames[$0.key] ?? $0.key, $0.value) }.sorted { $0.city < $1.city }
    }

    /// A percentage from 0 to 100 such as `14.2`, `12.5%` or `0`, in basis points (at most two decimals
    /// of a percent); nil for anything else.
    public static func basisPoints(percent text: String) -> Int? {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        if text.hasSuffix("%") { text = text.dropLast() }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, text.first != ".", text.last != "." else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts[0].count <= 3, let whole = Int(parts[0]) else { return nil }
        var hundredths = 0
        if parts.count == 2 {
            guard parts[1].count <= 2, let fraction = Int(parts[1]) else { return nil }
            hundredths = parts[1].count == 1 ? fraction * 10 : fraction
        }
        let basisPoints = whole * 100 + hundredths
        return basisPoints <= 10_000 ? basisPoints : nil
    }

    /// Basis points as a percent number for people and JSON: 1,420 → `14.2`, 1,250 → `12.5`, 800 → `8`.
    public static func percentText(_ basisPoints: Int) -> String {
        let whole = basisPoints / 100, rest = basisPoints % 100
        if rest == 0 { return "\(whole)" }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }
}

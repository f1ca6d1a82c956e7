import Foundation

/// A day of the week, Monday first (ISO 8601), as a flexible-date window's check-in days name them.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The weekday of `day`.
    public init(of day: Day) {
        self = Weekday(rawValue: day.weekdayFromMonday)!
    }

    /// Reads a weekday from its English name or its first three letters, in any case (`fri`, `Friday`).
    public init?(name: String) {
        let lowered = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard lowered.count >= 3,
              let match = Weekday.allCases.first(where: { $0.name.hasPrefix(lowered) }) else { return nil }
        self = match
    }

    /// The full lowercase English name, e.g. `friday`.
    public var name: String {
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][rawValue]
    }

    /// The three-letter name, e.g. `fri`.
    public var shortName: String { String(name.prefix(3)) }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A table of names by code (property types, amenities), with each code found by its folded name.
package struct NameTable: Sendable {
    /// The names, by code, as the data spells them.
    package let names: [String]
    /// Codes by folded name.
    private let codesByFoldedName: [String: Int]
    /// The codes in the order facet ties go: by folded name, then as spelled (``FacetCounts``).
    package let tieOrder: [Int]

    /// The table of the names in `column`.
    init(_ column: StringColumn) {
        names = (0..<column.count).map { column[$0] }
        let folded = names.map(TextFolding.fold)
        var codes: [String: Int] = [:]
        for (code, name) in folded.enumerated() { codes[name] = code }
        codesByFoldedName = codes
        tieOrder = NameTable.tieOrder(of: names, folded: folded)
    }

    /// The codes of `names` (with their folded forms `folded`) by folded name, then as spelled: the order
    /// ``FacetCounts`` gives names of equal counts.
    static func tieOrder(of names: [String], folded: [String]) -> [Int] {
        names.indices.sorted { a, b in folded[a] != folded[b] ? folded[a] < folded[b] : names[a] < names[b] }
    }

    /// The number of names.
    package var count: Int { names.count }

    /// The code of `name`, compared folded, if the table has it.
    package func code(of name: String) -> Int? { codesByFoldedName[TextFolding.fold(name)] }

    /// Up to three names closest to `name` (folded, by edit distance), for a "did you mean".
    package func suggestions(for name: String) -> [String] {
        NameTable.suggestions(for: name, among: names)
    }

    /// ``suggestions(for:)`` among `candidates` only: a live index's names that still have listings.
    static func suggestions(for name: String, among candidates: [String]) -> [String] {
        let folded = TextFolding.fold(name)
        let wanted = Array(folded.unicodeScalars)
        let limit = max(2, wanted.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for name in candidates {
            let distance = RegionTree.editDistance(wanted, Array(TextFolding.fold(name).unicodeScalars))
            if distance <= limit { scored.append((distance, name)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(3).map(\.name)
    }
}

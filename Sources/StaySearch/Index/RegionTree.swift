/// Cities, neighbourhood groups and neighbourhoods, in depth-first order, each covering one
/// contiguous range of index rows (the index sorts its rows by region path).
public struct RegionTree: Sendable {
    /// Every node, parents before children, siblings in alphabetical order of folded name.
    public let nodes: [RegionNode]
    /// Node positions by folded name.
    private let nodesByFoldedName: [String: [Int]]
    /// Other names of nodes (``RegionAlias``), as written, each with its node.
    public let aliases: [(name: String, node: Int)]
    /// Node positions by folded alias.
    private let nodesByFoldedAlias: [String: [Int]]

    /// Creates a tree from nodes in depth-first order, and other names of some of them.
    public init(nodes: [RegionNode], aliases: [(name: String, node: Int)] = []) {
        self.nodes = nodes
        var byName: [String: [Int]] = [:]
        for (position, node) in nodes.enumerated() {
            byName[node.foldedName, default: []].append(position)
        }
        self.nodesByFoldedName = byName
        self.aliases = aliases
        var byAlias: [String: [Int]] = [:]
        for alias in aliases where !(byAlias[TextFolding.fold(alias.name)]?.contains(alias.node) ?? false) {
            byAlias[TextFolding.fold(alias.name), default: []].append(alias.node)
        }
        nodesByFoldedAlias = byAlias.mapValues { $0.sorted() }
    }

    /// The names of `node` and its ancestors, from the city down.
    /// - Complexity: O(depth), at most 3.
    public func path(of node: Int) -> [String] {
        var names: [String] = []
        var current = node
        while current >= 0 {
            names.append(nodes[current].name)
            current = Int(nodes[current].parent)
        }
        return names.reversed()
    }

    /// The positions of the nodes a region name matches.
    ///
    /// A name matches every node whose folded name equals its folded form. `A/B` (any number of
    /// parts) matches the nodes named B that have nodes named A, and so on, above them, in order.
    /// A name that itself contains `/` is tried whole first. A name no region has but an alias
    /// (``RegionAlias``) has matches the alias's regions. A name in Hangul is romanized
    /// (``HangulRomanization``) and matched as written in Latin letters; failing that, it matches the nodes
    /// whose names, hyphens and spaces left out, equal it or start with it (종로 → Jongno-gu).
    /// - Returns: the matching node positions; empty when nothing matches.
    /// - Complexity: O(*m* · depth) for *m* nodes with the last part's name; O(*n*) for *n* nodes when a
    ///   Hangul name is matched by prefix.
    public func nodes(matching name: String) -> [Int] {
        let whole = TextFolding.fold(name)
        if let direct = nodesByFoldedName[whole] { return direct }
        if let aliased = nodesByFoldedAlias[whole] { return aliased }
        if let romanized = HangulRomanization.romanize(name) {
            let matched = nodes(matching: romanized)
            return matched.isEmpty ? nodes(startingLike: romanized) : matched
        }
        return nodes(matchingPath: name)
    }

    /// The nodes a name or path matches by the regions' own names (no alias, no romanization).
    func nodes(matchingNamesOnly name: String) -> [Int] {
        if let direct = nodesByFoldedName[TextFolding.fold(name)] { return direct }
        return nodes(matchingPath: name)
    }

    /// The nodes a path `A/B` matches by the regions' own names (its whole folded form tried by the caller).
    private func nodes(matchingPath name: String) -> [Int] {
        let parts = name.split(separator: "/").map { TextFolding.fold(String($0)) }.filter { !$0.isEmpty }
        guard parts.count > 1, let candidates = nodesByFoldedName[parts[parts.count - 1]] else { return [] }
        return candidates.filter { candidate in
            var wanted = parts.count - 2
            var ancestor = Int(nodes[candidate].parent)
            while wanted >= 0, ancestor >= 0 {
                if nodes[ancestor].foldedName == parts[wanted] { wanted -= 1 }
                ancestor = Int(nodes[ancestor].parent)
            }
            return wanted < 0
        }
    }

    /// The nodes whose folded names, without hyphens and spaces, equal the folded `name` so written, or
    /// failing that start with it.
    private func nodes(startingLike name: String) -> [Int] {
        let wanted = RegionTree.compact(TextFolding.fold(name))
        guard !wanted.isEmpty, !name.contains("/") else { return [] }
        let equal = nodes.indices.filter { RegionTree.compact(nodes[$0].foldedName) == wanted }
        return equal.isEmpty ? nodes.indices.filter { RegionTree.compact(nodes[$0].foldedName).hasPrefix(wanted) } : equal
    }

    /// A folded name without the hyphens and spaces that romanized names are written with or without.
    static func compact(_ folded: String) -> String {
        String(folded.unicodeScalars.filter { $0 != "-" && $0 != " " })
    }

    /// The row ranges of the nodes a region name matches, sorted and merged.
    /// - Throws: ``QueryError/unknownRegion(_:suggestions:)`` with the closest names when nothing matches.
    public func rowRanges(matching name: String) throws(QueryError) -> [Range<Int>] {
        let matched = nodes(matching: name)
        guard !matched.isEmpty else {
            throw .unknownRegion(name, suggestions: suggestions(for: name))
        }
        let ranges = matched.map { nodes[$0].rows }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Up to `limit` region names close to `name`: names that start with it first, then by edit
    /// distance on folded names; when none is close, the single closest name.
    /// - Complexity: O(*n* · *k*²) for *n* nodes and names of length *k*.
    public func suggestions(for name: String, limit: Int = 3) -> [String] {
        RegionTree.suggestions(for: name, among: nodes.map { ($0.name, $0.foldedName) }, limit: limit)
    }

    /// ``suggestions(for:limit:)`` among `candidates` only (names as spelled, with their folded forms):
    /// a live index's regions that still have listings.
    static func suggestions(for name: String, among candidates: [(name: String, foldedName: String)], limit: Int = 3) -> [String] {
        let name = HangulRomanization.romanize(name) ?? name
        let wanted = TextFolding.fold(String(name.split(separator: "/").last ?? Substring(name)))
        var scored: [(score: Int, name: String)] = []
        var seen = Set<String>()
        for candidate in candidates where seen.insert(candidate.name).inserted {
            let score = candidate.foldedName.hasPrefix(wanted) && !wanted.isEmpty
                ? 0 : 1 + RegionTree.editDistance(Array(wanted.unicodeScalars), Array(candidate.foldedName.unicodeScalars))
            scored.append((score, candidate.name))
        }
        scored.sort { ($0.score, $0.name) < ($1.score, $1.name) }
        // Close names only (a third of the letters wrong at most); otherwise the single closest.
        let closeEnough = 1 + max(2, wanted.unicodeScalars.count / 3)
        let close = scored.prefix(limit).filter { $0.score <= closeEnough }
        return (close.isEmpty ? Array(scored.prefix(1)) : Array(close)).map(\.name)
    }

    /// Positions of the nodes whose folded name starts with, or contains, the folded `prefix`;
    /// prefix matches first. A prefix in Hangul is romanized and compared without hyphens and spaces.
    public func nodes(withNamesStartingWith prefix: String) -> [Int] {
        let aliased = aliasedNodes(startingWith: prefix)
        guard aliased.isEmpty else {
            let named = namedNodes(startingWith: prefix)
            return aliased + named.filter { !aliased.contains($0) }
        }
        return namedNodes(startingWith: prefix)
    }

    /// The nodes of the aliases that start with the folded `prefix`, in node order.
    private func aliasedNodes(startingWith prefix: String) -> [Int] {
        let folded = TextFolding.fold(prefix)
        guard !folded.isEmpty, !aliases.isEmpty else { return [] }
        return Set(nodesByFoldedAlias.filter { $0.key.hasPrefix(folded) }.values.joined()).sorted()
    }

    /// ``nodes(withNamesStartingWith:)`` by the regions' own names.
    private func namedNodes(startingWith prefix: String) -> [Int] {
        if let romanized = HangulRomanization.romanize(prefix) {
            let wanted = RegionTree.compact(TextFolding.fold(romanized))
            let names = nodes.map { RegionTree.compact($0.foldedName) }
            let starting = names.indices.filter { names[$0].hasPrefix(wanted) }
            return starting + names.indices.filter { !names[$0].hasPrefix(wanted) && names[$0].contains(wanted) }
        }
        let folded = TextFolding.fold(prefix)
        let starting = nodes.indices.filter { nodes[$0].foldedName.hasPrefix(folded) }
        let containing = nodes.indices.filter {
            !nodes[$0].foldedName.hasPrefix(folded) && nodes[$0].foldedName.contains(folded)
        }
        return starting + containing
    }

    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

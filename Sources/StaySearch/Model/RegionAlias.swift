/// Another name for a region of a city, from the city folder's `aliases.csv` (docs/data.md): 서울 for
/// Seoul, 종로구 for Jongno-gu. A region typed as the alias matches what the region's name matches.
public struct RegionAlias: Sendable, Equatable, Hashable {
    /// The city the alias belongs to.
    public var city: String
    /// The other name, as written.
    public var alias: String
    /// The region it names: the city itself, or a path inside it (`Jongno-gu`, `Group/Neighbourhood`).
    public var region: String

    /// Creates an alias.
    public init(city: String, alias: String, region: String) {
        self.city = city
        self.alias = alias
        self.region = region
    }
}

extension RegionTree {
    /// The nodes `alias` names in this tree: the city's node when its region is the city's name, else the
    /// nodes the path `city/region` matches; empty when the region is not one of the city's.
    public func nodes(of alias: RegionAlias) -> [Int] {
        let city = TextFolding.fold(alias.city)
        let inCity = { (node: Int) in TextFolding.fold(self.path(of: node)[0]) == city }
        let region = alias.region.trimmingSlashes
        if TextFolding.fold(region) == city {
            return nodes.indices.filter { nodes[$0].level == .city && nodes[$0].foldedName == city }
        }
        guard !region.isEmpty else { return [] }
        return nodes(matchingNamesOnly: alias.city + "/" + region).filter(inCity)
    }
}

private extension String {
    var trimmingSlashes: String {
        var text = Substring(self)
        while text.first == "/" || text.first == " " { text.removeFirst() }
        while text.last == "/" || text.last == " " { text.removeLast() }
        return String(text)
    }
}

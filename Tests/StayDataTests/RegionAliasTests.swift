import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// `aliases.csv` beside a city's files: other names of its regions, matched as the regions' own names are,
/// kept in saved indexes; rows that are not aliases are left out with a warning naming file and line.
@Suite struct RegionAliasTests {
    /// The shipped sample in a scratch folder with an aliases file.
    static func sampleWithAliases(_ text: String) throws -> String {
        let folder = Scratch.directory("aliases")
        for name in ["listings.csv.gz", "calendar.csv.gz"] {
            try FileManager.default.copyItem(atPath: shipped + "/" + name, toPath: folder + "/" + name)
        }
        try text.write(toFile: folder + "/aliases.csv", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func aliasesMatchAsTheRegionsNamesDo() throws {
        let folder = try Self.sampleWithAliases("""
            alias,region
            앤트워프,Antwerp
            중앙역,Centraal Station
            "역, 중앙",Centraal Station
            없는곳,Nowhere
            ,Zuid
            남쪽,Zuid

            """)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: folder)])
        #expect(report.warnings == [
            "\(folder)/aliases.csv:6: an alias needs an alias and a region; row left out",
            "\(folder)/aliases.csv:5: 'Nowhere' is not a region of Antwerp; the alias '없는곳' is left out",
        ])
        let stay = SearchQuery(checkIn: Day(iso: "2024-07-12"), checkOut: Day(iso: "2024-07-15"), adults: 2)
        for (alias, name) in [("앤트워프", "Antwerp"), ("중앙역", "Centraal Station"), ("역, 중앙", "centraal station"), ("남쪽", "Zuid")] {
            var byAlias = stay, byName = stay
            byAlias.region = alias
            byName.region = name
            let answer = try index.search(byAlias)
            #expect(answer.total > 0)
            #expect(ReferenceAnswer(answer) == ReferenceAnswer(try index.search(byName)), "\(alias)")
        }
        #expect(throws: QueryError.self) { try index.search(SearchQuery(region: "없는곳")) }
        #expect(Set(index.regionAliases()) == [
            RegionAlias(city: "Antwerp", alias: "앤트워프", region: "Antwerp"),
            RegionAlias(city: "Antwerp", alias: "중앙역", region: "Centraal Station"),
            RegionAlias(city: "Antwerp", alias: "역, 중앙", region: "Centraal Station"),
            RegionAlias(city: "Antwerp", alias: "남쪽", region: "Zuid"),
        ])
        // Completion finds a region by the start of its alias, first.
        let centraal = index.regions.nodes(matching: "Centraal Station")
        #expect(Array(index.regions.nodes(withNamesStartingWith: "중앙").prefix(centraal.count)) == centraal)

        // A live index's changed listings are found by the aliases too.
        let live = LiveIndex(index)
        let centraalRow = centraal.map { index.regions.nodes[$0].rows }.first!.lowerBound
        var rename = ListingChange(id: index.listingID(ofRow: centraalRow))
        rename.name = "Renamed"
        try live.apply(.listing(rename))
        #expect(try live.search(SearchQuery(region: "중앙역")).total == (try live.search(SearchQuery(region: "Centraal Station")).total))
        #expect(try live.search(SearchQuery(region: "앤트워프")).total == index.count)

        // A saved index keeps them.
        let path = Scratch.path("aliases") + ".ssx"
        try IndexFileWriter.save(index, to: path)
        let loaded = try IndexFileReader.load(from: path)
        #expect(Set(loaded.regionAliases()) == Set(index.regionAliases()))
        #expect(try loaded.search(SearchQuery(region: "중앙역")).total == (try index.search(SearchQuery(region: "Centraal Station")).total))
    }

    @Test func aFileWithoutItsColumnsIsRefusedAndStrictStopsAtABadRow() throws {
        let headerless = try Self.sampleWithAliases("name,where\n중앙역,Centraal Station\n")
        #expect(throws: DataError.malformedFile(path: headerless + "/aliases.csv",
                                                reason: "has no column named alias or region (its header: alias,region)")) {
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: headerless)])
        }
        let unknown = try Self.sampleWithAliases("alias,region\n없는곳,Nowhere\n")
        var strict = InsideAirbnbLoader()
        strict.isStrict = true
        #expect(throws: DataError.rejectedRecord(path: unknown + "/aliases.csv", line: 2,
                                                 reason: "'Nowhere' is not a region of Antwerp; the alias '없는곳' is left out")) {
            try strict.loadIndex(from: [DatasetFolder(city: "Antwerp", path: unknown)])
        }
    }
}

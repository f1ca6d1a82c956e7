import Foundation
import StaySearch
import StaySearchTestSupport
import Testing

/// Regions typed in Hangul: romanized by the Revised Romanization of Korean and matched against the
/// region names, on a city with Seoul's 25 districts.
@Suite struct HangulRegionTests {
    /// Seoul's districts as the city spells them in Latin letters, and in Hangul.
    static let districts: [(latin: String, hangul: String)] = [
        ("Jongno-gu", "종로구"), ("Jung-gu", "중구"), ("Yongsan-gu", "용산구"), ("Seongdong-gu", "성동구"), ("Gwangjin-gu", "광진구"),
        ("Dongdaemun-gu", "동대문구"), ("Jungnang-gu", "중랑구"), ("Seongbuk-gu", "성북구"), ("Gangbuk-gu", "강북구"),
        ("Dobong-gu", "도봉구"), ("Nowon-gu", "노원구"), ("Eunpyeong-gu", "은평구"), ("Seodaemun-gu", "서대문구"), ("Mapo-gu", "마포구"),
        ("Yangcheon-gu", "양천구"), ("Gangseo-gu", "강서구"), ("Guro-gu", "구로구"), ("Geumcheon-gu", "금천구"),
        ("Yeongdeungpo-gu", "영등포구"), ("Dongjak-gu", "동작구"), ("Gwanak-gu", "관악구"), ("Seocho-gu", "서초구"),
        ("Gangnam-gu", "강남구"), ("Songpa-gu", "송파구"), ("Gangdong-gu", "강동구"),
    ]

    let index: ListingIndex = {
        var listings: [ListingRecord] = []
        for (number, district) in HangulRegionTests.districts.enumerated() {
            for copy in 0..<2 {
                let id = Int64(number * 2 + copy + 1)
                listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "Seoul", neighbourhood: district.latin),
                                              roomType: "Private room", accommodates: 2, price: Money(major: 50)))
            }
        }
        listings.append(ListingRecord(id: 99, name: "L99", region: RegionPath(city: "Busan", neighbourhood: "Haeundae-gu"),
                                      roomType: "Private room", accommodates: 2, price: Money(major: 50)))
        return TestDataset(listings: listings, nights: []).makeIndex().index
    }()

    private func districts(_ region: String) throws -> Set<String> {
        let rows = try index.search(SearchQuery(region: region, limit: 100)).matches.map(\.id)
        return Set(rows.map { $0 == 99 ? "Haeundae-gu" : HangulRegionTests.districts[Int($0 - 1) / 2].latin })
    }

    @Test func syllablesAreRomanizedWithTheAssimilationRules() {
        let cases = [
            ("서울", "seoul"), ("종로", "jongno"), ("강남", "gangnam"), ("중랑", "jungnang"), ("관악", "gwanak"),
            ("한국어", "hangugeo"), ("좋아", "joa"), ("읽어", "ilgeo"), ("국민", "gungmin"), ("십만", "simman"),
            ("대학로", "daehangno"), ("법률", "beomnyul"), ("신라", "silla"), ("설날", "seollal"), ("별내", "byeollae"),
            ("왕십리", "wangsimni"), ("부산", "busan"), ("해운대", "haeundae"), ("Seoul 종로구/1", "Seoul jongnogu/1"),
        ]
        for (hangul, latin) in cases { #expect(HangulRomanization.romanize(hangul) == latin, "\(hangul)") }
        #expect(HangulRomanization.romanize("Antwerpen") == nil)
        // Decomposed jamo (as some keyboards send them) are composed first.
        #expect(HangulRomanization.romanize("종로".decomposedStringWithCanonicalMapping) == "jongno")
    }

    @Test func everyDistrictIsFoundByItsHangulName() throws {
        for district in HangulRegionTests.districts {
            #expect(try districts(district.hangul) == [district.latin], "\(district.hangul)")
            // Without the 구 (district) ending, as a traveller types it.
            #expect(try districts(String(district.hangul.dropLast())).contains(district.latin), "\(district.hangul.dropLast())")
        }
        #expect(try districts("종로") == ["Jongno-gu"])
        #expect(try districts("강남") == ["Gangnam-gu"])
        #expect(try districts("강") == ["Gangnam-gu", "Gangbuk-gu", "Gangseo-gu", "Gangdong-gu"])
        #expect(try districts("서울").count == 25)
        #expect(try districts("해운대") == ["Haeundae-gu"])
    }

    @Test func unknownHangulSuggestsAndPrefixesComplete() {
        let error = #expect(throws: QueryError.self) { try index.search(SearchQuery(region: "종루구")) }
        #expect(error?.description.contains("did you mean 'Jongno-gu'") == true, "\(String(describing: error))")
        let completed = index.regions.nodes(withNamesStartingWith: "강").map { index.regions.nodes[$0].name }
        #expect(Set(completed) == ["Gangnam-gu", "Gangbuk-gu", "Gangseo-gu", "Gangdong-gu"])
        #expect(index.regions.nodes(withNamesStartingWith: "종로").map { index.regions.nodes[$0].name } == ["Jongno-gu"])
    }
}

import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// The repository's `Data/` folder: the shipped Antwerp sample and the Albany sample the tests also read.
let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Data").path
let shipped = dataFolder + "/antwerp"
let albany = dataFolder + "/albany"
let jerseyCity = dataFolder + "/jersey-city-2019"

@Suite struct RealSampleTests {
    @Test func antwerpLoadsCompletely() throws {
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: shipped)])
        #expect(report.files.map(\.recordsRead) == [2_870, 1_047_550])
        #expect(report.files.map(\.loaded) == [2_870, 1_047_550])
        #expect(report.rejectedCount == 0)
        #expect(index.count == 2_870)
        #expect(index.regions.nodes.filter { $0.level == .neighbourhood }.count == 57)
        #expect(index.firstDay == Day(iso: "2024-06-29")! && index.dayCount == 365)
        #expect(index.storage.ids.array.max()!.description.count == 19)
    }

    @Test func antwerpAnswersAsCheckedByHand() throws {
        let (index, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: shipped)])
        // Checked with an independent Python scan of the CSV files.
        let result = try index.search(SearchQuery(region: "Centraal Station", checkIn: Day(iso: "2024-07-12"),
                                                  checkOut: Day(iso: "2024-07-15"), adults: 2))
        #expect(result.total == 69)
        #expect(result.matches.first?.id == 1_188_186_300_730_889_815)
        #expect(result.matches.first?.totalPrice == Money(major: 132))
        #expect(result.histogram.count == 69)
        #expect(result.histogram.averageNightlyPrice == Money(minorUnits: 125_813))
        // Listing 50904's first calendar row (2024-06-29) is booked; the next nights are free at $175.
        let row = index.row(ofListingID: 50_904)!
        #expect(!index.isBookable(row: row, day: Day(iso: "2024-06-29")!))
        #expect(index.isBookable(row: row, day: Day(iso: "2024-06-30")!))
        #expect(index.nightPrice(row: row, day: Day(iso: "2024-06-30")!) == 17_500)
        // Without dates every listing has a price (424 only through their calendar).
        #expect(try index.search(SearchQuery(limit: 0)).total == 2_870)
    }

    @Test func antwerpDetailFiltersAgreeWithAnIndependentScan() throws {
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: shipped)])
        #expect(report.rejectedFieldCount == 0)
        // Every figure below was computed by an independent Python scan of listings.csv.gz (csv and json
        // modules, haversine on positions rounded to 10⁻⁷ degree).
        var query = SearchQuery(limit: 0)
        query.amenities = ["wifi", "KITCHEN"]
        query.bedrooms = 2
        query.boundingBox = MapBox(south: 51.19, west: 4.38, north: 51.23, east: 4.43)
        query.roomType = "Entire home/apt"
        query.facets = [.roomType, .bedrooms]
        query.facetLimit = 3
        let boxed = try index.search(query)
        #expect(boxed.total == 668)
        #expect(boxed.facets[0].entries == [.init(value: .text("Entire home/apt"), count: 668), .init(value: .text("Private room"), count: 13),
                                            .init(value: .text("Hotel room"), count: 1)])
        // The bedrooms facet leaves out its own filter: every entire home in the box with both amenities.
        #expect(boxed.facets[1].entries == [.init(value: .number(1), count: 856), .init(value: .number(2), count: 486),
                                            .init(value: .number(3), count: 124)])

        var near = SearchQuery(sort: .distance, limit: 3)
        near.near = GeoPoint(latitude: 51.2172, longitude: 4.4212)
        near.radiusKilometres = 1
        let close = try index.search(near)
        #expect(close.total == 771)
        #expect(close.matches.map(\.id) == [667_089_215_393_425_719, 1_115_085_260_010_314_985, 936_383_205_165_391_608])
        #expect(abs(close.matches[0].distanceKilometres! - 0.07757243643031653) < 1e-12)

        var rooms = SearchQuery(limit: 0)
        rooms.bathroomHalves = 3
        #expect(try index.search(rooms).total == 953)
        var booking = SearchQuery(limit: 0)
        booking.superhostsOnly = true
        booking.instantBookableOnly = true
        #expect(try index.search(booking).total == 236)
        #expect(index.valueCounts(of: .amenities).first { $0.value == .text("Wifi") }?.count == 2_625)
        #expect(index.valueCounts(of: .propertyType).prefix(3).map(\.count) == [1_562, 323, 176])
        #expect(index.propertyTypes.count == 37)
    }

    /// On the real sample, a flexible search equals the cheapest of the exact searches it stands for.
    @Test func antwerpFlexibleStaysAreTheCheapestExactStays() throws {
        let (index, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: shipped)])
        var shifted = SearchQuery(region: "Centraal Station", checkIn: Day(iso: "2024-07-12")!, checkOut: Day(iso: "2024-07-15")!,
                                  adults: 2, limit: 1_000)
        shifted.flexibleDays = 3
        var weekends = SearchQuery(region: "Centraal Station", adults: 2, limit: 1_000)
        weekends.checkInFrom = Day(iso: "2024-08-01")!
        weekends.checkInTo = Day(iso: "2024-08-31")!
        weekends.windowNights = 2
        weekends.checkInWeekdays = [.friday, .saturday]
        for flexible in [shifted, weekends] {
            var cheapest: [Int64: (total: Money, checkIn: Day)] = [:]
            for checkIn in flexible.candidateCheckIns {
                let exact = SearchQuery(region: flexible.region, checkIn: checkIn, checkOut: checkIn.advanced(by: flexible.nights!),
                                        adults: 2, limit: 1_000)
                let result = try index.search(exact)
                #expect(result.total == result.matches.count)
                for match in result.matches where match.totalPrice! < cheapest[match.id]?.total ?? Money(minorUnits: .max) {
                    cheapest[match.id] = (match.totalPrice!, checkIn)
                }
            }
            let result = try index.search(flexible)
            #expect(result.total == cheapest.count && result.total > 100)
            #expect(result.histogram.count == cheapest.count)
            var shiftedCount = 0
            for match in result.matches {
                #expect(match.totalPrice == cheapest[match.id]?.total, "\(match.id)")
                #expect(match.checkIn == cheapest[match.id]?.checkIn, "\(match.id)")
                #expect(match.checkOut == match.checkIn?.advanced(by: flexible.nights!))
                if match.checkIn != flexible.candidateCheckIns.first { shiftedCount += 1 }
            }
            #expect(shiftedCount > 10)
        }
    }

    @Test func albanyLoadsCompletely() throws {
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(argument: albany)])
        #expect(report.files.map(\.recordsRead) == [421, 153_665])
        #expect(report.rejectedCount == 0)
        #expect(index.regions.nodes[0].name == "albany")
        let result = try index.search(SearchQuery(region: "first ward", checkIn: Day(iso: "2024-12-20"),
                                                  checkOut: Day(iso: "2024-12-23"), adults: 2))
        #expect(result.matches.map(\.id) == [52_152_157, 42_763_847, 845_960_193_409_947_556])
        #expect(result.matches.map { $0.totalPrice?.minorUnits } == [29_700, 59_700, 85_500])
    }

    @Test func gzipRecordsWithEmbeddedNewlinesAreWhole() throws {
        let reader = CSVReader(source: try openByteSource(path: shipped + "/listings.csv.gz"))
        var records = 0, multiline = 0
        try reader.forEachRecord { record in
            records += 1
            if (0..<record.count).contains(where: { record.bytes(at: $0).contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } }) {
                multiline += 1
            }
            #expect(record.count == 75)
        }
        #expect(records == 2_871)
        #expect(multiline == 541)     // the samples' README: records with embedded line breaks
    }
}

/// The older format (2015–2020): a sample of Jersey City's scrape of 2019-04-27 (`Data/README.md`).
@Suite struct OlderFormatSampleTests {
    /// Every listing loads with its `{…}` amenities and a rating on the 5-star scale; the numbers were
    /// counted by an independent Python scan of `listings.csv.gz` (the csv module, the 100-point ratings
    /// divided by 20 and rounded half up, placeholders dropped).
    @Test func jerseyCityLoadsWithAmenitiesAndStars() throws {
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Jersey City", path: jerseyCity)])
        #expect(report.files.map(\.recordsRead) == [400, 146_003])
        #expect(report.listingsLoaded == 400)
        #expect(report.rejectedFieldCount == 0)
        #expect(index.count == 400)
        func count(_ change: (inout SearchQuery) -> Void) throws -> Int {
            var query = SearchQuery(limit: 0)
            change(&query)
            return try index.search(query).total
        }
        #expect(try count { $0.amenities = ["wifi"] } == 392)
        #expect(try count { $0.amenities = ["Cable TV"] } == 150)
        let ratings = (0..<index.count).compactMap { index.listing(atRow: $0).ratingHundredths }
        #expect(ratings.count == 347)
        #expect(ratings.max() == 500 && ratings.min() == 100)
        #expect(ratings.filter { $0 >= 475 }.count == 206)
        let amenities = (0..<index.count).flatMap { index.fullListing(atRow: $0).amenities }
        #expect(!amenities.contains { $0.hasPrefix("translation missing") })
        #expect(Set(amenities).count == 108)
    }

    /// The fee columns load as SPEC reads them; the counts are an independent Python scan's (the csv module,
    /// discounts ⌊(k·p − w) · 10000 / (k·p)⌋ for k = 7 and 30, kept when above 0).
    @Test func jerseyCityLoadsItsFees() throws {
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Jersey City", path: jerseyCity)])
        #expect(report.listingsWithFees == 375)
        #expect(report.rejectedFieldCount == 0)
        let fees = (0..<index.count).compactMap { index.fees(ofRow: $0) }
        #expect(fees.count == 375)
        #expect(fees.filter { ($0.cleaningFee?.minorUnits ?? 0) > 0 }.count == 346)
        #expect(fees.filter { $0.weeklyDiscountBasisPoints > 0 }.count == 10)
        #expect(fees.filter { $0.monthlyDiscountBasisPoints > 0 }.count == 19)
        #expect(fees.filter { ($0.extraGuestFee?.minorUnits ?? 0) > 0 }.count == 226)
        #expect(fees.filter { $0.securityDeposit != nil }.count == 201)
        // Listing 6860: $163 a night, $900 a week, $2,600 a month, $95 cleaning, 2 guests included, $50 each above, $500 deposit.
        let row = try #require(index.row(ofListingID: 6860))
        #expect(index.fees(ofRow: row) == ListingFees(cleaningFee: Money(minorUnits: 9_500), guestsIncluded: 2,
                                                      extraGuestFee: Money(minorUnits: 5_000), weeklyDiscountBasisPoints: 2_112,
                                                      monthlyDiscountBasisPoints: 4_683, securityDeposit: Money(minorUnits: 50_000)))
        // Every dated search's totals are SPEC's trip price of the stay's nights, fees and service fee.
        for (nights, adults, serviceFee) in [(3, 1, 0), (7, 2, 1_420), (8, 3, 0), (28, 2, 1_250), (30, 4, 1_000)] {
            var query = SearchQuery(checkIn: Day(year: 2019, month: 5, day: 6)!, adults: adults, limit: 1_000)
            query.checkOut = query.checkIn!.advanced(by: nights)
            query.serviceFeeBasisPoints = serviceFee
            let result = try index.search(query)
            #expect(result.total > 0)
            for match in result.matches {
                let quote = index.quote(row: match.row, checkIn: query.checkIn!, checkOut: query.checkOut!, guests: adults)
                let sum = try #require(quote.trip?.nightlySubtotal)
                let expected = ReferenceSearch.tripPrice(nightsSum: sum, nights: nights, guests: adults, fees: index.fees(ofRow: match.row),
                                                         serviceFee: serviceFee)
                #expect(match.totalPrice?.minorUnits == expected, "listing \(match.id), \(nights) nights")
            }
        }
    }

    /// An old city and a new one in one index sort by rating on one scale: the best rated of either first.
    @Test func oldAndNewCitiesSortByRatingOnOneScale() throws {
        let (index, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Jersey City", path: jerseyCity),
                                                                   DatasetFolder(city: "Albany", path: albany)])
        let result = try index.search(SearchQuery(sort: .rating, limit: 1_000))
        let ratings = result.matches.map { index.listing(atRow: index.row(ofListingID: $0.id)!).ratingHundredths ?? -1 }
        #expect(ratings.allSatisfy { $0 <= 500 })
        let rated = ratings.filter { $0 >= 0 }
        #expect(rated == rated.sorted(by: >))
    }
}

@Suite struct BadDataTests {
    private func folder(listings: String, calendar: String) throws -> String {
        let directory = Scratch.directory("bad")
        try listings.write(toFile: directory + "/listings.csv", atomically: true, encoding: .utf8)
        try calendar.write(toFile: directory + "/calendar.csv", atomically: true, encoding: .utf8)
        return directory
    }

    private let header = "id,name,neighbourhood_cleansed,room_type,accommodates,price,review_scores_rating,latitude,longitude\n"
    private let calendarHeader = "listing_id,date,available,price,minimum_nights,maximum_nights\n"

    @Test func detailFieldsLoadAsRealFilesWriteThem() throws {
        let listings = "id,name,neighbourhood_cleansed,room_type,accommodates,price,bedrooms,beds,bathrooms,bathrooms_text,"
            + "property_type,amenities,instant_bookable,host_is_superhost\n"
            + "1,A,Zuid,Private room,2,$70.00,1,2,,Shared half-bath,Private room in home,\"[\"\"Wifi\"\", \"\"Caf\\u00e9 machine\"\"]\",t,t\n"
            + "2,B,Zuid,Private room,2,$70.00,,,2.0,1 bath,Entire condo,\"[\"\"Wifi\"\", oops]\",f,\n"      // malformed amenities
            + "3,C,Zuid,Private room,2,$70.00,3.0,x,,1.5 shared baths,,[],f,f\n"
        let directory = try folder(listings: listings, calendar: calendarHeader)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: directory)])
        #expect(report.listingsLoaded == 3)                 // the malformed list rejects the field, not the listing
        #expect(report.rejectedFieldCount == 1)
        #expect(report.fieldRejections.first?.line == 3)
        #expect(report.fieldRejections.first?.description.contains("amenities") == true)
        func count(_ change: (inout SearchQuery) -> Void) throws -> Int {
            var query = SearchQuery(limit: 0)
            change(&query)
            return try index.search(query).total
        }
        #expect(try count { $0.amenities = ["wifi"] } == 1)
        #expect(try count { $0.amenities = ["cafe MACHINE"] } == 1)
        #expect(try count { $0.bathroomHalves = 1 } == 3)      // half-bath, 1 bath, 1.5 baths
        #expect(try count { $0.bathroomHalves = 3 } == 2)      // 2.0 and 1.5
        #expect(try count { $0.bedrooms = 0 } == 2)            // "3.0" reads as 3; the empty one is unknown
        #expect(try count { $0.beds = 0 } == 1)                // "x" is unknown
        #expect(try count { $0.superhostsOnly = true } == 1)
        #expect(try count { $0.instantBookableOnly = true } == 1)
        #expect(try count { $0.propertyTypes = ["entire condo", "Private Room in Home"] } == 2)
    }

    @Test func feesComeFromTheColumnsOrAFeesFile() throws {
        let listings = "id,name,neighbourhood_cleansed,room_type,accommodates,price,cleaning_fee,guests_included,extra_people,"
            + "weekly_price,monthly_price,security_deposit\n"
            + "1,A,Zuid,Private room,4,$100.00,$30.00,2,$10.00,$630.00,\"$2,400.00\",$200.00\n"
            + "2,B,Zuid,Private room,4,$100.00,$abc,,,$5.00,,\n"          // a cleaning fee and a 99 %+ discount that do not parse
            + "3,C,Zuid,Private room,4,$100.00,,,,,,\n"
            + "4,D,Zuid,Private room,4,$100.00,$0.00,1,$0.00,,,$0.00\n"   // every fee zero: none
        let directory = try folder(listings: listings, calendar: calendarHeader)
        let fees = "listing_id,cleaning_fee,guests_included,extra_guest_fee,weekly_discount,monthly_discount\n"
            + "3,$45.50,1,$5.00,12.5%,20\n"
            + "1,$10.00,,,,\n"                                               // replaces the columns; the deposit stays
            + "99,$10.00,,,,\n"                                              // no such listing
            + "4,-5,,,150%,\n"                                                // a negative fee, a discount over 99 %
        try fees.write(toFile: directory + "/fees.csv", atomically: true, encoding: .utf8)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: directory)])
        #expect(report.listingsLoaded == 4)
        func feesOf(_ id: Int64) -> ListingFees? { index.fees(ofRow: index.row(ofListingID: id)!) }
        #expect(feesOf(1) == ListingFees(cleaningFee: Money(minorUnits: 1_000), securityDeposit: Money(minorUnits: 20_000)))
        #expect(feesOf(2) == nil)
        #expect(feesOf(3) == ListingFees(cleaningFee: Money(minorUnits: 4_550), guestsIncluded: 1, extraGuestFee: Money(minorUnits: 500),
                                         weeklyDiscountBasisPoints: 1_250, monthlyDiscountBasisPoints: 2_000))
        #expect(feesOf(4) == nil)
        #expect(report.listingsWithFees == 2)
        let lines = report.fieldRejections.map { "\($0.path.hasSuffix("fees.csv") ? "fees" : "listings"):\($0.line) \($0.reason.rawValue)" }
        #expect(Set(lines) == ["fees:5 a fee does not parse", "listings:3 a fee does not parse", "fees:4 fees for an unknown listing"])
        #expect(report.rejectedFieldCount == 5)        // fees.csv line 5 twice, listings line 3 twice, fees.csv line 4
        let messages = report.fieldRejections.map(\.description)
        #expect(messages.contains { $0.hasSuffix("listings.csv:3: listing 2: cleaning_fee '$abc' is not an amount such as $70.00 (up to $21,474,836.47); loaded without it") })
        #expect(messages.contains { $0.contains("listing 2: weekly_price '$5.00' is a discount of over 99 %") })
        #expect(messages.contains { $0.hasSuffix("fees.csv:4: fees for listing 99, which \(directory)/listings.csv does not have; row left out") })
        #expect(messages.contains { $0.contains("fees.csv:5: listing 4: weekly_discount '150%' is not a percentage from 0 to 99") })
        // Without a fees.csv, listing 1 keeps its columns' fees: $30 cleaning, 2 included, $10 each above, 10 % weekly, 20 % monthly.
        try FileManager.default.removeItem(atPath: directory + "/fees.csv")
        let (plain, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: directory)])
        #expect(plain.fees(ofRow: plain.row(ofListingID: 1)!) == ListingFees(
            cleaningFee: Money(minorUnits: 3_000), guestsIncluded: 2, extraGuestFee: Money(minorUnits: 1_000), weeklyDiscountBasisPoints: 1_000,
            monthlyDiscountBasisPoints: 2_000, securityDeposit: Money(minorUnits: 20_000)))
        // Saved and loaded with the index.
        let path = Scratch.path("fees.ssx")
        try IndexFileWriter.save(index, to: path)
        let loaded = try IndexFileReader.load(from: path)
        #expect((0..<loaded.count).map { loaded.fees(ofRow: $0) } == (0..<index.count).map { index.fees(ofRow: $0) })
        // In strict mode the first fee that does not parse stops the load.
        #expect(throws: DataError.self) { try InsideAirbnbLoader(strict: true).loadIndex(from: [DatasetFolder(city: "T", path: directory)]) }
    }

    @Test func neighbourhoodBoundariesAreKeptAndSaved() throws {
        let listings = header + "1,Good,Zuid,Private room,2,$70.00,4.5,51.2,4.4\n"
        let directory = try folder(listings: listings, calendar: calendarHeader)
        let geojson = #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"neighbourhood": "Zuid", "neighbourhood_group": null},
               "geometry": {"type": "MultiPolygon", "coordinates": [[[[4.38, 51.19], [4.40, 51.19], [4.40, 51.20], [4.38, 51.19]]],
                                                                    [[[4.41, 51.19], [4.42, 51.19], [4.42, 51.2012345], [4.41, 51.19]]]]}},
              {"type": "Feature", "properties": {"neighbourhood": "Centraal Station"},
               "geometry": {"type": "Polygon", "coordinates": [[[4.415, 51.215], [4.43, 51.215], [4.43, 51.222], [4.415, 51.215]]]}}
            ]}
            """#
        try geojson.write(toFile: directory + "/neighbourhoods.geojson", atomically: true, encoding: .utf8)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: directory)])
        #expect(report.warnings.isEmpty)
        let shapes = index.neighbourhoodShapes()
        #expect(shapes.map(\.name) == ["Zuid", "Centraal Station"])
        #expect(shapes.map(\.city) == ["Antwerp", "Antwerp"])
        #expect(shapes.map(\.rings.count) == [2, 1])
        #expect(shapes[0].rings[1][2] == GeoPoint(latitude: 51.2012345, longitude: 4.42))
        // Saved and loaded with the index.
        let path = Scratch.path("shapes.ssx")
        try IndexFileWriter.save(index, to: path)
        #expect(try IndexFileReader.load(from: path).neighbourhoodShapes() == shapes)

        // A broken file is a warning, not a failed load; in strict mode it stops the load.
        try #"{"type": "FeatureCollection", "features": [{"geometry": {"type": "Point", "coordinates": [4.4, 51.2]}}]}"#
            .write(toFile: directory + "/neighbourhoods.geojson", atomically: true, encoding: .utf8)
        let (broken, brokenReport) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: directory)])
        #expect(broken.neighbourhoodShapes().isEmpty && broken.count == 1)
        #expect(brokenReport.warnings == [directory + "/neighbourhoods.geojson: feature 1 is a Point, not a Polygon or MultiPolygon; "
                                          + "the map shows no neighbourhood boundaries for Antwerp"])
        #expect(throws: DataError.self) { try InsideAirbnbLoader(strict: true).loadIndex(from: [DatasetFolder(city: "A", path: directory)]) }
    }

    @Test func badRecordsAreCountedWithFileLineAndReason() throws {
        let listings = header
            + "1,Good,Zuid,Private room,2,$70.00,4.5,51.2,4.4\n"      // line 2
            + "x2,Bad id,Zuid,Private room,2,$70.00,,51.2,4.4\n"      // line 3
            + "3,Bad price,Zuid,Private room,2,seventy,,51.2,4.4\n"   // line 4
            + "1,Duplicate,Zuid,Private room,2,$70.00,,51.2,4.4\n"    // line 5
            + "4,Short,Zuid\n"                                         // line 6
            + "5,No type,Zuid,,2,$70.00,,51.2,4.4\n"                  // line 7
            + "6,\"Multi\nline\",Zuid,Entire home/apt,4,\"$1,350.00\",,51.2,4.4\n"  // lines 8-9
            + "7,Off the globe,Zuid,Private room,2,$70.00,,1e300,4.4\n"     // line 10
        let calendar = calendarHeader
            + "1,2024-07-01,t,$70.00,1,30\n"       // 2
            + "1,2024-07-02,t,,,\n"                // 3: falls back to the listing's price and rules
            + "1,2024-07-01,f,$80.00,1,30\n"       // 4: duplicate date
            + "1,2024-13-01,t,$70.00,1,30\n"       // 5: bad date
            + "99,2024-07-01,t,$70.00,1,30\n"      // 6: unknown listing
            + "3,2024-07-01,t,$70.00,1,30\n"       // 7: listing 3 was rejected
            + "1,2024-07-03,maybe,$70.00,1,30\n"   // 8: bad availability
            + "1,2024-07-04,t,$7O.00,1,30\n"       // 9: bad price
            + "6,2024-07-01,t,,2,\n"               // 10
            + "6,0024-07-01,t,,2,\n"               // 11: a typo far outside any calendar
        let directory = try folder(listings: listings, calendar: calendar)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Test", path: directory)])
        #expect(report.files[0].recordsRead == 8)
        #expect(report.files[0].loaded == 2)
        #expect(report.files[1].recordsRead == 10)
        #expect(report.files[1].loaded == 3)
        for file in report.files { #expect(file.loaded + file.rejected == file.recordsRead) }
        let lines = report.rejections.map { "\($0.path.hasSuffix("listings.csv") ? "L" : "C")\($0.line) \($0.reason.rawValue)" }
        #expect(Set(lines) == [
            "L3 id does not parse", "L4 price does not parse", "L5 duplicate listing id", "L6 wrong number of fields",
            "L7 room_type is empty", "L10 a number does not parse", "C4 duplicate calendar date", "C5 date does not parse",
            "C6 calendar row for an unknown listing", "C7 calendar row for an unknown listing",
            "C8 available is not t or f", "C9 price does not parse", "C11 date does not parse",
        ])
        let duplicate = report.rejections.first { $0.reason == .duplicateListing }
        #expect(duplicate?.description.hasSuffix("duplicate listing id 1 (first seen at \(directory)/listings.csv:2)") == true,
                "\(duplicate?.description ?? "none")")
        #expect(index.count == 2)
        let row = index.row(ofListingID: 1)!
        #expect(index.nightPrice(row: row, day: Day(iso: "2024-07-01")!) == 7_000)   // the first row for the date wins
        #expect(index.nightPrice(row: row, day: Day(iso: "2024-07-02")!) == 7_000)
        #expect(index.listing(atRow: index.row(ofListingID: 6)!).name == "Multi\nline")
        #expect(index.listing(atRow: index.row(ofListingID: 6)!).price == Money(minorUnits: 135_000))
    }

    /// Prices up to 1,000,000,000.00 a night load exactly, the listing's and its nights', and a stay of them totals to the
    /// cent; a price above it is rejected with its file and line.
    @Test func pricesUpToABillionLoadExactly() throws {
        let listings = header
            + "1,Villa,Zuid,Entire home/apt,4,\"$1,000,000,000.00\",,51.2,4.4\n"     // line 2
            + "2,Palace,Zuid,Entire home/apt,4,\"$1,000,000,000.01\",,51.2,4.4\n"    // line 3: above the bound
            + "3,Room,Zuid,Private room,2,\"$80.00\",,51.2,4.4\n"                     // line 4
        let calendar = calendarHeader
            + "1,2024-07-01,t,\"$999,999,999.99\",1,30\n"       // 2
            + "1,2024-07-02,t,\"$25,000,000.50\",1,30\n"        // 3
            + "1,2024-07-03,t,,1,30\n"                          // 4: the listing's price
            + "1,2024-07-04,t,\"$1,000,000,000.01\",1,30\n"     // 5: above the bound
            + "3,2024-07-01,t,$80.00,1,30\n"
            + "3,2024-07-02,t,$21474836.48,1,30\n"
            + "3,2024-07-03,t,$90.00,1,30\n"
        let directory = try folder(listings: listings, calendar: calendar)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Test", path: directory)])
        let lines = report.rejections.map { "\($0.path.hasSuffix("listings.csv") ? "L" : "C")\($0.line) \($0.reason.rawValue)" }
        #expect(Set(lines) == ["L3 price does not parse", "C5 price does not parse"])
        #expect(report.rejections.first?.description.hasSuffix("(up to $1,000,000,000.00)") == true)
        let villa = index.row(ofListingID: 1)!, room = index.row(ofListingID: 3)!
        #expect(index.listing(atRow: villa).price == Money(minorUnits: 100_000_000_000))
        #expect(index.nightPrice(row: villa, day: Day(iso: "2024-07-01")!) == 99_999_999_999)
        #expect(index.nightPrice(row: villa, day: Day(iso: "2024-07-02")!) == 2_500_000_050)
        #expect(index.nightPrice(row: villa, day: Day(iso: "2024-07-03")!) == 100_000_000_000)
        #expect(index.nightPrice(row: room, day: Day(iso: "2024-07-02")!) == 2_147_483_648)
        let query = SearchQuery(checkIn: Day(iso: "2024-07-01")!, checkOut: Day(iso: "2024-07-04")!, sort: .priceDescending)
        let result = try index.search(query)
        #expect(result.matches.map(\.id) == [1, 3])
        #expect(result.matches.map(\.totalPrice) == [Money(minorUnits: 202_500_000_049), Money(minorUnits: 2_147_500_648)])
        #expect(try index.search(SearchQuery(sort: .priceDescending)).matches.map(\.nightlyPrice)
                == [Money(minorUnits: 100_000_000_000), Money(minorUnits: 8_000)])
        // A nightly price range over the stay's nights: the villa's average is 67,500,000,016.33.
        for (highest, ids) in [(67_500_000_015, [3]), (67_500_000_017, [3, 1])] as [(Int64, [Int64])] {
            #expect(try index.search(SearchQuery(checkIn: Day(iso: "2024-07-01")!, checkOut: Day(iso: "2024-07-04")!,
                                                 maximumPrice: Money(minorUnits: highest))).matches.map(\.id) == ids)
        }
    }

    /// Calendars read on several threads give the same index and the same report, rejections in the
    /// same order, as reading every file in turn.
    @Test(arguments: [(Int.max, false), (1, false), (1, true)])
    func concurrentCalendarsMatchReadingInTurn(splitSize: Int, multiline: Bool) throws {
        var folders: [DatasetFolder] = []
        for city in 0..<5 {
            var listings = header
            var calendar = calendarHeader
            for number in 0..<40 {
                let id = city * 100 + number
                listings += number == 7 ? "x\(id),Bad,Zuid,Private room,2,,,1,1\n"
                    : "\(id),Home \(id),Zuid \(number % 3),Private room,\(1 + number % 4),$\(50 + number).00,,51.2,4.4\n"
                for day in 1...20 {
                    // Some listings priced in the tens of millions (wide prices, shared by the parts read apart).
                    let price = number % 13 == 5 ? "$\(30_000_000 + 1_000 * day + city).25" : "$\(60 + day).00"
                    calendar += "\(id),2024-07-\(day < 10 ? "0" : "")\(day),\(day % 5 == 0 ? "f" : "t"),"
                        + "\(day % 7 == 0 ? "" : price),\(1 + number % 2),30\n"
                }
                if number % 9 == 0 { calendar += "\(id),2024-07-03,t,$1.00,1,30\n" }          // duplicate date
                if number % 11 == 0 { calendar += "\((city + 1) * 100 + number),2024-07-03,t,,1,30\n" }  // another city's
                if multiline {   // quoted fields with line breaks, so that a file's middle falls inside one
                    calendar += "\(id),2024-07-21,t,\"$1,\(String(repeating: String(repeating: "x", count: 100) + "\n", count: 40))00\",1,30\n"
                }
            }
            if city == 2 { listings += "105,Duplicate of city 1,Zuid,Private room,2,,,1,1\n" }
            folders.append(DatasetFolder(city: "City \(city)", path: try folder(listings: listings, calendar: calendar)))
        }
        var inTurn = InsideAirbnbLoader()
        inTurn.readsCalendarsConcurrently = false
        let (sequential, sequentialReport) = try inTurn.loadIndex(from: folders)
        var loader = InsideAirbnbLoader()
        loader.splitSize = splitSize
        let (concurrent, concurrentReport) = try loader.loadIndex(from: folders)
        #expect(concurrentReport == sequentialReport)
        #expect(concurrentReport.rejections.count > 20)
        #expect(concurrent.count == sequential.count)
        for query in [SearchQuery(), SearchQuery(checkIn: Day(iso: "2024-07-02")!, checkOut: Day(iso: "2024-07-05")!),
                      SearchQuery(region: "City 3", checkIn: Day(iso: "2024-07-06")!, checkOut: Day(iso: "2024-07-09")!, adults: 2)] {
            #expect(ReferenceAnswer(try concurrent.search(query)) == ReferenceAnswer(try sequential.search(query)))
        }
    }

    @Test func strictStopsAtTheFirstBadRecord() throws {
        let directory = try folder(listings: header + "1,Good,Zuid,Private room,2,$70.00,,51.2,4.4\nx,Bad,Zuid,Private room,2,,,1,1\n",
                                   calendar: calendarHeader)
        #expect(throws: DataError.rejectedRecord(path: directory + "/listings.csv", line: 3, reason: "id 'x' is not a listing id")) {
            try InsideAirbnbLoader(strict: true).loadIndex(from: [DatasetFolder(city: "Test", path: directory)])
        }
    }

    @Test func missingFilesAndColumnsAreErrors() throws {
        let noColumns = try folder(listings: "id,name\n1,x\n", calendar: calendarHeader)
        #expect(throws: DataError.missingColumns(path: noColumns + "/listings.csv", columns: ["room_type", "accommodates", "neighbourhood_cleansed"])) {
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: noColumns)])
        }
        #expect(throws: DataError.missingFile(folder: "/nonexistent", name: "listings")) {
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: "/nonexistent")])
        }
        let empty = try folder(listings: "", calendar: calendarHeader)
        #expect(throws: DataError.emptyFile(path: empty + "/listings.csv")) {
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: empty)])
        }
        let truncated = try folder(listings: header, calendar: calendarHeader)
        let gzip = try Data(contentsOf: URL(fileURLWithPath: shipped + "/calendar.csv.gz"))
        try gzip.prefix(10_000).write(to: URL(fileURLWithPath: truncated + "/calendar.csv.gz"))
        try FileManager.default.removeItem(atPath: truncated + "/calendar.csv")
        #expect(throws: DataError.cannotRead(path: truncated + "/calendar.csv.gz", reason: "the gzip data ends early (truncated file)")) {
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "T", path: truncated)])
        }
    }

    @Test func datasetArguments() throws {
        #expect(try DatasetFolder(argument: "Zürich=/data/zurich") == DatasetFolder(city: "Zürich", path: "/data/zurich"))
        #expect(try DatasetFolder(argument: "/data/albany/") == DatasetFolder(city: "albany", path: "/data/albany/"))
        #expect(try DatasetFolder(argument: "./a=b/c") == DatasetFolder(city: "c", path: "./a=b/c"))
        #expect(throws: DataError.self) { try DatasetFolder(argument: "=/x") }
    }

    /// The random data sets, written as CSV and read back, give the same index answers.
    @Test(arguments: 0..<12)
    func csvRoundTripMatchesTheReference(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 1_000)
        let directory = Scratch.path("roundtrip")
        let folders = try data.writeInsideAirbnb(to: directory).map { try DatasetFolder(argument: $0) }
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: folders)
        #expect(report.listingsLoaded == data.listings.count)
        var random = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<40 {
            let query = data.randomQuery(using: &random)
            // Answers, or the same error (an unknown name), from both.
            #expect(Result { () throws(QueryError) in ReferenceAnswer(try index.search(query)) }.mapError(\.withoutSuggestions)
                    == Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data.inFileOrder) }.mapError(\.withoutSuggestions), "\(query)")
        }
    }
}

/// The real samples against the brute-force reference, in every order (the recommended one with and without
/// a point to be near): the reference reads the listings and nights back from the index.
@Suite struct SampleOrderTests {
    /// The listings and calendars of `index` as the reference reads them.
    static func dataset(of index: ListingIndex) -> TestDataset {
        var listings: [ListingRecord] = []
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for row in 0..<index.count {
            let listing = EditableListing(row: row, of: index)
            listings.append(listing.record)
            for day in 0..<index.dayCount where listing.prices[day] != ListingIndex.noCalendarRow {
                let rule = StayRule(packed: listing.rules[day])
                let price = listing.prices[day]
                nights.append((listing.record.id, CalendarNight(day: index.firstDay.advanced(by: day), isAvailable: listing.bookable[day],
                                                                price: price >= 0 ? Money(minorUnits: Int64(price)) : nil,
                                                                minimumNights: Int32(rule.minimumNights), maximumNights: Int32(rule.maximumNights))))
            }
        }
        return TestDataset(listings: listings, nights: nights)
    }

    @Test(arguments: ["antwerp", "albany"])
    func everyOrderAgreesWithTheReference(city: String) throws {
        let (index, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: city.capitalized, path: dataFolder + "/" + city)])
        let data = Self.dataset(of: index)
        #expect(data.listings.contains { $0.recentReviewCount > 0 })
        var random = SeededGenerator(seed: 29)
        var pagesCompared = 0
        for round in 0..<12 {
            // The random query's dates and guests, few other filters, so that pages are full.
            let drawn = data.randomQuery(using: &random)
            var query = SearchQuery(checkIn: drawn.checkIn, checkOut: drawn.checkOut, adults: drawn.adults)
            query.sort = SortOrder.allCases[round % SortOrder.allCases.count]
            if query.sort == .distance || (query.sort == .recommended && round % 4 == 1) {
                let listing = data.listings[round * 37 % data.listings.count]
                query.near = GeoPoint(latitude: listing.latitude, longitude: listing.longitude)
            }
            if round % 3 == 0 { query.maximumPrice = Money(minorUnits: 15_000) }
            query.limit = 20
            let engine = Result { () throws(QueryError) in ReferenceAnswer(try index.search(query)) }.mapError(\.withoutSuggestions)
            #expect(engine == Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data) }.mapError(\.withoutSuggestions),
                    "\(query)")
            if case .success(let answer) = engine, answer.ids.count > 1, query.sort == .recommended { pagesCompared += 1 }
        }
        #expect(pagesCompared == 2)
    }
}

import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// A city folder as Inside Airbnb's download page gives it: the detailed `listings.csv.gz` and the summary
/// `listings.csv` (18 columns) side by side, or the summary alone.
@Suite struct DownloadedFolderTests {
    /// The summary file's header as Inside Airbnb publishes it, and two of the shipped sample's listings in it.
    static let summary = """
        id,name,host_id,host_name,neighbourhood_group,neighbourhood,latitude,longitude,room_type,price,minimum_nights,number_of_reviews,last_review,reviews_per_month,calculated_host_listings_count,availability_365,number_of_reviews_ltm,license
        50904,"aplace/antwerp: cosy suite - fashion district",234077,Karin,,Historisch Centrum,51.218575,4.398631,Hotel room,,1,3,2015-05-06,0.02,1,0,0,
        116134,"Trendy Vacation Apartment Antwerp",586942,Jonas,,Historisch Centrum,51.219276,4.401656,Entire home/apt,173,2,229,2024-06-16,1.53,2,284,28,

        """

    /// A folder holding the shipped sample's calendar and, as asked, its detailed listings and the summary.
    private func folder(_ name: String, detailed: Bool, summary: Bool) throws -> String {
        let path = Scratch.path(name)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path + "/calendar.csv.gz", withDestinationPath: shipped + "/calendar.csv.gz")
        if detailed { try FileManager.default.createSymbolicLink(atPath: path + "/listings.csv.gz", withDestinationPath: shipped + "/listings.csv.gz") }
        if summary { try Self.summary.write(toFile: path + "/listings.csv", atomically: true, encoding: .utf8) }
        return path
    }

    @Test func theDetailedListingsAreTakenBesideTheSummary() throws {
        let path = try folder("both", detailed: true, summary: true)
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: path)])
        #expect(report.files.first?.path == path + "/listings.csv.gz")
        #expect(index.count == 2_870 && report.rejectedCount == 0)
    }

    @Test func theSummaryAloneSaysWhichFileToFetch() throws {
        let path = try folder("summary", detailed: false, summary: true)
        #expect {
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: path)])
        } throws: { error in
            (error as? DataError) == .summaryListings(path: path + "/listings.csv")
                && "\(error)".contains("download the detailed listings.csv.gz")
        }
    }

    /// The detailed file unpacked as `listings.csv` is read as before.
    @Test func anUnpackedDetailedFileIsRead() throws {
        let path = try folder("unpacked", detailed: false, summary: false)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: shipped + "/listings.csv.gz"))
        let unpacked = Scratch.path("unpacked-listings.gz")
        try bytes.write(to: URL(fileURLWithPath: unpacked))
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gzip -dc '\(unpacked)' > '\(path)/listings.csv'"]
        try gunzip.run()
        gunzip.waitUntilExit()
        #expect(gunzip.terminationStatus == 0)
        let (index, _) = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: path)])
        #expect(index.count == 2_870)
    }
}

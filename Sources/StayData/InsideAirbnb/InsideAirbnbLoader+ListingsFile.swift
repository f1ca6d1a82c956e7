extension InsideAirbnbLoader {
    /// Columns of Inside Airbnb's summary listings file (`listings.csv`, 18 columns, offered beside the
    /// detailed `listings.csv.gz` on its download page) that the detailed file names otherwise: a file with
    /// these and without the detailed file's columns is the summary.
    static let summaryListingColumns = ["neighbourhood", "number_of_reviews", "calculated_host_listings_count", "availability_365"]

    /// The listings file of `folder`: of `listings.csv` and `listings.csv.gz`, the first whose header has the
    /// columns a search needs. A folder as the download page gives it often holds the summary `listings.csv`
    /// beside the detailed `listings.csv.gz`: the detailed one is taken.
    /// - Throws: ``DataError/missingFile(folder:name:)`` without either file;
    ///   ``DataError/summaryListings(path:)`` when the only listings file is the summary (it has no
    ///   capacity, amenities or rules: a search by guests could not be answered).
    static func listingsFile(in folder: String) throws(DataError) -> String {
        let base = folder.hasSuffix("/") ? folder + "listings" : folder + "/listings"
        let candidates = [base + ".csv", base + ".csv.gz"].filter(fileExists)
        guard let first = candidates.first else { throw .missingFile(folder: folder, name: "listings") }
        guard candidates.count > 1 || isSummary(first) else { return first }
        var summary: String?
        for candidate in candidates {
            let names = headerNames(of: candidate)
            if requiredListingColumns.allSatisfy(names.contains) { return candidate }
            if summaryListingColumns.allSatisfy(names.contains) { summary = candidate }
        }
        if let summary { throw .summaryListings(path: summary) }
        // Neither has the columns: reading the first reports which are missing.
        return first
    }

    /// Whether the file at `path` is the summary listings file.
    private static func isSummary(_ path: String) -> Bool {
        let names = headerNames(of: path)
        return summaryListingColumns.allSatisfy(names.contains) && !requiredListingColumns.allSatisfy(names.contains)
    }

    /// The column names of the CSV file at `path` (none when it cannot be read: reading it later says why).
    private static func headerNames(of path: String) -> Set<String> {
        struct Read: Error { let names: [String] }
        guard let source = try? openByteSource(path: path) else { return [] }
        do {
            try CSVReader(source: source, chunkSize: 1 << 16).forEachRecord { throw Read(names: CSVHeader(record: $0).names) }
        } catch let read as Read {
            return Set(read.names)
        } catch {
            return []
        }
        return []
    }
}

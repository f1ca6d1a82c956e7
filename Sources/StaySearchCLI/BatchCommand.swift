import StaySearchAPI
import ArgumentParser
import StayData
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// `staysearch batch`: many queries from a JSON lines file, one JSON line out for each.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run one query per JSON line and print one JSON result per line, with took_us.",
        discussion: """
            Each input line is an object with any of the keys region, checkin, checkout, adults, children, \
            infants, min_price, max_price, room_type, sort, limit, offset, bins, hist_min, hist_max, bedrooms, \
            beds, bathrooms, property_type, amenities, instant_bookable, superhost, bbox, near, radius_km, \
            facets, facet_limit, flexible_days, checkin_from, checkin_to, nights, checkin_weekdays, and map (a PNG file to draw the results on a map into). Each output \
            line is the search JSON plus "took_us" (engine time in microseconds), or an error object \
            ({"error": "…", "message": "…", "code": "…", "type": "…"}, docs/errors.md) for a bad line; the run goes on.

            Example:
              echo '{"region": "Zuid", "checkin": "2024-07-12", "checkout": "2024-07-15", "adults": 2}' > q.jsonl
              staysearch batch --queries q.jsonl
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var indexMemory: IndexMemoryOptions
    @OptionGroup var platform: PlatformOptions

    @Option(help: ArgumentHelp("The JSON lines file of queries ('-' for standard input).", valueName: "FILE"))
    var queries: String

    func run() throws {
        let lines = try readLines()
        let index = try data.loadSearchable(memory: indexMemory.memory)
        index.platform = try platform.fees(for: index.index)
        // What the recommended order reads of every row is worked out with the index, as `serve` does, rather
        // than inside the first such query's time.
        let parsed = lines.compactMap { try? QueryReader.batchLine($0).query }
        if parsed.contains(where: { $0.sort == .recommended }) { index.prepareRecommendedOrder() }
        // So is the order of the prices without dates, for the guests, room types and days of the queries that
        // need nothing else (and, for those in the recommended order, every row by quality).
        var seen = Set<String>()
        index.prepareUndatedOrder(for: parsed.filter { query in
            let key = ["\(query.guests)", query.roomType ?? "", query.today?.description ?? "", query.sort == .recommended ? "r" : ""]
            return query.dependsOnlyOnPricesWithoutDates && seen.insert(key.joined(separator: "\u{1F}")).inserted
        })
        var output = ""
        for line in lines {
            output += answer(line, index: index)
            output += "\n"
            if output.utf8.count > 1 << 16 {
                Standard.write(output)
                output = ""
            }
        }
        Standard.write(output)
    }

    private func answer(_ line: String, index: SearchableIndex) -> String {
        let query: SearchQuery
        let mapPath: String?
        do {
            (query, mapPath) = try QueryReader.batchLine(line)
        } catch {
            return APIError(error, revealing: true).json
        }
        let start = Standard.now()
        do {
            let result = try index.search(query, threads: threads.count)
            let micros = Int(((Standard.now() - start) * 1e6).rounded())
            if let mapPath {
                // The map is drawn after the engine's time is taken.
                try MapOutput.writePNG(query: query, result: result, index: index.index, to: mapPath, width: 800, height: 600, scale: 1,
                                       threads: threads.count)
            }
            return ResultFormatting.json(result, tookMicroseconds: micros)
        } catch {
            return APIError(error, revealing: true).json
        }
    }

    private func readLines() throws -> [String] {
        let handle: UnsafeMutablePointer<FILE>?
        handle = queries == "-" ? fdopen(0, "r") : fopen(queries, "r")
        guard let handle else {
            throw CommandFailure(message: "\(queries): cannot open: \(FileDescriptor.lastError)", code: ExitStatus.badInput)
        }
        defer { if queries != "-" { fclose(handle) } }
        var lines: [String] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            let length = getline(&buffer, &capacity, handle)
            if length < 0 { break }
            var bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer!).assumingMemoryBound(to: UInt8.self), count: length)
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        if ferror(handle) != 0 {
            throw CommandFailure(message: "\(queries): cannot read (is it a directory?)", code: ExitStatus.badInput)
        }
        return lines
    }
}

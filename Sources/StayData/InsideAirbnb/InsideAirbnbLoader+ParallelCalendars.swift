import Dispatch
import StaySearch

extension InsideAirbnbLoader {
    /// Reads every city's listings in turn, then their calendars on as many threads as there are
    /// cores, each part into a builder of its own whose nights are appended in file order. A large
    /// uncompressed calendar is read in two parts: the first reads from the start up to the first
    /// record ending at or after a line break near the middle; the second from that line break.
    /// The second part counts only when the first really ended there (no quoted field spans it);
    /// otherwise the rest is read again after the first. Files, lines, rejections and their order
    /// come out as reading everything in turn would give them.
    func readInParallel(_ cities: [CitySources], state: inout LoadState) throws(DataError) {
        var handlesOfCity: [[Int64: IndexBuilder.ListingHandle]] = []
        var listingRejections: [Range<Int>] = []
        for city in cities {
            var handles: [Int64: IndexBuilder.ListingHandle] = [:]
            state.report.files.append(.init(path: city.listingsName))
            state.report.files.append(.init(path: city.calendarName))
            let start = state.report.rejections.count
            try readListings(path: city.listingsName, source: try city.listings(), city: city.city, feesPath: city.feesPath,
                             fileIndex: state.report.files.count - 2, state: &state, handles: &handles)
            listingRejections.append(start..<state.report.rejections.count)
            handlesOfCity.append(handles)
        }
        var pieces: [CalendarPiece] = []
        for (number, city) in cities.enumerated() {
            if let path = city.plainCalendarPath, let split = Self.lineBreakNearMiddle(of: path, from: splitSize) {
                pieces.append(CalendarPiece(city: number, part: .head(split: split)))
                pieces.append(CalendarPiece(city: number, part: .tail(start: split.offset, path: path)))
            } else {
                pieces.append(CalendarPiece(city: number, part: .whole))
            }
        }
        let work = ParallelCalendars(loader: self, cities: cities, handles: handlesOfCity, files: state.report.files, pieces: pieces,
                                     widePrices: state.builder.widePriceRegistry)
        // The largest pieces first (threads take the next piece as they finish one): a large city read
        // last would leave the other core idle while it runs. Results are merged in file order all the same.
        let sizes = pieces.map { Self.estimatedBytes(of: $0, in: cities) }
        let order = pieces.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        DispatchQueue.concurrentPerform(iterations: pieces.count) { work.read(piece: order[$0]) }

        var rejections: [Rejection] = []
        var next = 0
        // Each piece's result is dropped from `work` as it is taken, so that its nights are freed once
        // merged: the peak is the merged nights plus those not merged yet, not twice everything.
        for number in cities.indices {
            rejections += state.report.rejections[listingRejections[number]]
            let fileIndex = 2 * number + 1
            let piece = pieces[next]
            let result = work.take(next)
            next += 1
            guard case .success(let first) = result.state else {
                if case .failure(let error) = result.state { throw error }
                continue
            }
            Self.merge(first, fileIndex: fileIndex, lineOffset: 0, into: &state, rejections: &rejections)
            guard case .head(let split) = piece.part else { continue }
            let tail = work.take(next)
            next += 1
            let lineOffset = result.nextLine - 1
            if result.stoppedAt == split.offset {
                switch tail.state {
                case .success(let second):
                    Self.merge(second, fileIndex: fileIndex, lineOffset: lineOffset, into: &state, rejections: &rejections)
                case .failure(let error):
                    throw error
                }
            } else if let stoppedAt = result.stoppedAt, stoppedAt < split.size {
                // A quoted field spanned the line break: read the rest after where the first part ended.
                var rest = LoadState(spillingTo: spill, pieces: spillPieces, widePrices: state.builder.widePriceRegistry)
                rest.report.files = state.report.files
                rest.report.files[fileIndex] = .init(path: cities[number].calendarName)
                _ = try readCalendar(path: cities[number].calendarName,
                                     source: try FileByteSource(path: split.path, range: stoppedAt..<split.size),
                                     fileIndex: fileIndex, state: &rest, handles: handlesOfCity[number],
                                     part: FilePart(header: split.header))
                Self.merge(rest, fileIndex: fileIndex, lineOffset: lineOffset, into: &state, rejections: &rejections)
            }
        }
        state.report.rejections = Array(rejections.prefix(LoadReport.keptRejectionLimit))
    }

    /// About how many bytes a piece reads (its file's size on disk, compressed or not; 0 when the
    /// calendar is not a file): what the pieces are ordered by.
    static func estimatedBytes(of piece: CalendarPiece, in cities: [CitySources]) -> Int {
        switch piece.part {
        case .head(let split): return split.offset
        case .tail(let start, let path): return ((try? FileByteSource(path: path))?.size ?? start) - start
        case .whole: return (try? FileByteSource(path: cities[piece.city].calendarName))?.size ?? 0
        }
    }

    /// Adds what a part of a calendar file loaded, its lines counted from `lineOffset` + 1.
    static func merge(
        _ part: LoadState, fileIndex: Int, lineOffset: Int, into state: inout LoadState, rejections: inout [Rejection]
    ) {
        let summary = part.report.files[fileIndex]
        state.report.files[fileIndex].recordsRead += summary.recordsRead
        state.report.files[fileIndex].loaded += summary.loaded
        state.report.files[fileIndex].rejectedByReason.merge(summary.rejectedByReason, uniquingKeysWith: +)
        state.report.calendarRowsLoaded += part.report.calendarRowsLoaded
        rejections += part.report.rejections.map { rejection in
            var shifted = rejection
            shifted.line += lineOffset
            return shifted
        }
        state.builder.appendNights(of: part.builder, shiftingLinesBy: lineOffset)
    }

    /// Where a file of at least `minimumSize` bytes may be split: just after the first line break
    /// at or after its middle, with its header; nil for a smaller file or one without such a break.
    static func lineBreakNearMiddle(of path: String, from minimumSize: Int) -> Split? {
        guard let file = try? FileByteSource(path: path), file.size >= minimumSize, file.size >= 2 else { return nil }
        let middle = file.size / 2
        guard let window = try? FileByteSource(path: path, range: middle..<min(file.size, middle + (1 << 20))) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = (try? bytes.withUnsafeMutableBytes { try window.read(into: $0) }) ?? 0
        guard let newline = bytes[0..<count].firstIndex(of: UInt8(ascii: "\n")), middle + newline + 1 < file.size else { return nil }
        guard let header = try? InsideAirbnbLoader().header(ofFile: path) else { return nil }
        return Split(path: path, offset: middle + newline + 1, size: file.size, header: header)
    }

    /// A place to split a calendar file.
    struct Split {
        let path: String
        /// The first byte of the second part.
        let offset: Int
        /// The file's size.
        let size: Int
        /// The file's header, for the second part.
        let header: CSVHeader
    }

    /// One unit of calendar reading: a city's whole calendar or one of its two parts.
    struct CalendarPiece {
        enum Part {
            case whole
            case head(split: Split)
            case tail(start: Int, path: String)
        }

        let city: Int
        let part: Part
    }

    /// What reading one piece gave.
    struct PieceResult {
        var state: Result<LoadState, DataError>
        var stoppedAt: Int?
        var nextLine = 1
    }

    /// The calendar pieces of several cities, read concurrently; each result written by one thread only.
    final class ParallelCalendars: @unchecked Sendable {
        let loader: InsideAirbnbLoader
        let cities: [CitySources]
        let handles: [[Int64: IndexBuilder.ListingHandle]]
        let files: [LoadReport.FileSummary]
        let pieces: [CalendarPiece]
        /// The wide prices of the load the pieces' nights go to.
        let widePrices: WidePriceRegistry
        var results: [PieceResult?]
        let progressLock = ProgressLock()

        init(loader: InsideAirbnbLoader, cities: [CitySources], handles: [[Int64: IndexBuilder.ListingHandle]],
             files: [LoadReport.FileSummary], pieces: [CalendarPiece], widePrices: WidePriceRegistry) {
            self.loader = loader
            self.widePrices = widePrices
            self.cities = cities
            self.handles = handles
            self.files = files
            self.pieces = pieces
            results = Array(repeating: nil, count: pieces.count)
        }

        /// The result of piece `position`, handed over: `results` no longer holds it.
        func take(_ position: Int) -> PieceResult {
            defer { results[position] = nil }
            return results[position]!
        }

        func read(piece position: Int) {
            var loader = self.loader
            if let progress = loader.progress {
                let lock = progressLock
                loader.progress = { path, bytes, total, records in lock.run { progress(path, bytes, total, records) } }
            }
            let piece = pieces[position]
            let city = cities[piece.city]
            let fileIndex = 2 * piece.city + 1
            var state = LoadState(spillingTo: loader.spill, pieces: loader.spillPieces, widePrices: widePrices)
            state.report.files = files
            var stop: (stoppedAt: Int?, nextLine: Int) = (nil, 1)
            let result = Result { () throws(DataError) -> LoadState in
                switch piece.part {
                case .whole:
                    let calendar = try city.calendar()
                    stop = try loader.readCalendar(path: city.calendarName, source: calendar, fileIndex: fileIndex,
                                                   state: &state, handles: handles[piece.city])
                case .head(let split):
                    stop = try loader.readCalendar(path: city.calendarName, source: try FileByteSource(path: split.path),
                                                   fileIndex: fileIndex, state: &state, handles: handles[piece.city],
                                                   part: FilePart(stopOffset: split.offset))
                case .tail(let start, let path):
                    guard case .head(let split) = pieces[position - 1].part else { return state }
                    let source = try FileByteSource(path: path, range: start..<split.size)
                    stop = try loader.readCalendar(path: city.calendarName, source: source, fileIndex: fileIndex,
                                                   state: &state, handles: handles[piece.city],
                                                   part: FilePart(header: split.header))
                }
                return state
            }
            let outcome = PieceResult(state: result, stoppedAt: stop.stoppedAt, nextLine: stop.nextLine)
            results.withUnsafeMutableBufferPointer { $0[position] = outcome }
        }
    }
}

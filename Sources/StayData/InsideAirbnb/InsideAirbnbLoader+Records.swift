import StaySearch

extension InsideAirbnbLoader {
    /// Reads the header, checks required columns and makes `columns` from it once, then hands each
    /// well-formed record with the right number of fields to `body` with those columns; rejects the rest.
    @discardableResult
    func forEachRecord<Columns>(
        path: String, source: any ByteSource, required: [String], fileIndex: Int, state: inout LoadState,
        part: FilePart = FilePart(), columns makeColumns: (CSVHeader) -> Columns,
        _ body: (Columns, CSVRecord, inout LoadState) throws(DataError) -> Void
    ) throws(DataError) -> (stoppedAt: Int?, nextLine: Int) {
        let reader = CSVReader(source: source, chunkSize: chunkSize)
        reader.stopOffset = part.stopOffset
        // Only plain values are touched per record (no counted references): the columns, the field count.
        var columns: Columns? = part.header.map(makeColumns)
        var fieldCount = part.header?.names.count ?? 0
        var records = 0
        do {
            try reader.forEachRecord { record in
                guard let columns else {
                    let parsed = CSVHeader(record: record)
                    let missing = parsed.missing(required)
                    guard missing.isEmpty else { throw DataError.missingColumns(path: path, columns: missing) }
                    columns = makeColumns(parsed)
                    fieldCount = parsed.names.count
                    return
                }
                records += 1
                if records & 0xFFFF == 0 {
                    let size = source.fileSize ?? 0
                    progress?(path, reader.bytesConsumed, size, records)
                }
                if let flaw = record.flaw {
                    return try reject(&state, fileIndex: fileIndex, line: record.line, .malformedCSV, flaw.message)
                }
                guard record.count == fieldCount else {
                    return try reject(&state, fileIndex: fileIndex, line: record.line, .fieldCount,
                                      "\(record.count) fields where the header has \(fieldCount)")
                }
                try body(columns, record, &state)
            }
        } catch let error as DataError {
            state.report.files[fileIndex].recordsRead += records
            throw error
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        state.report.files[fileIndex].recordsRead += records
        guard columns != nil else { throw .emptyFile(path: path) }
        return (reader.stoppedAt, reader.nextLine)
    }

    /// Which part of a file a read covers: from its start (reading the header) up to the first
    /// record that ends at or after `stopOffset`, or, with `header` known, a source that starts
    /// at a record boundary further on.
    struct FilePart {
        var header: CSVHeader?
        var stopOffset = Int.max
    }

    /// The header of the CSV file at `path` (its first record).
    func header(ofFile path: String) throws(DataError) -> CSVHeader? {
        let reader = CSVReader(source: try FileByteSource(path: path), chunkSize: 1 << 16)
        reader.stopOffset = 0
        var header: CSVHeader?
        do {
            try reader.forEachRecord { record in header = CSVHeader(record: record) }
        } catch let error as DataError {
            throw error
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        return header
    }
}

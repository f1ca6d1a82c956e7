/// The columns of a CSV file, found by header name.
struct CSVHeader {
    /// Column names in file order.
    let names: [String]
    private let positions: [String: Int]

    init(record: CSVRecord) {
        var names: [String] = []
        for index in 0..<record.count {
            var name = record.string(at: index)
            if names.isEmpty, name.hasPrefix("\u{FEFF}") { name.removeFirst() }
            names.append(name.trimmingSpaces)
        }
        self.names = names
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil { positions[name] = position }
        self.positions = positions
    }

    /// The position of a column, if the file has it.
    func position(of name: String) -> Int? { positions[name] }

    /// The names among `required` that the file lacks.
    func missing(_ required: [String]) -> [String] { required.filter { positions[$0] == nil } }
}

extension String {
    package var trimmingSpaces: String {
        // Nearly every field starts and ends with a visible ASCII character: nothing to trim, and no
        // grapheme breaking to find that out.
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return self }
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

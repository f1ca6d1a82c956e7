/// Where a record came from: which of the sources read, and which line of it. Importers give one with
/// every calendar night, and the builder reports it back for a night it leaves out.
public struct RecordOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The position of the source among those read (0 for the first file).
    public var file: Int
    /// The line the record starts on (1 for the first line).
    public var line: Int

    /// The largest file position an origin holds.
    public static let largestFile = (1 << 16) - 1
    /// The largest line an origin holds.
    public static let largestLine = (1 << 48) - 1

    /// Creates an origin.
    /// - Precondition: `file` is in `0 ... largestFile` and `line` in `0 ... largestLine`.
    public init(file: Int, line: Int) {
        precondition(file >= 0 && file <= RecordOrigin.largestFile && line >= 0 && line <= RecordOrigin.largestLine,
                     "record origin out of range")
        self.file = file
        self.line = line
    }

    /// The origin `lines` lines further down the same file.
    public func advanced(byLines lines: Int) -> RecordOrigin { RecordOrigin(file: file, line: line + lines) }

    public var description: String { "file \(file) line \(line)" }

    /// The origin in 8 bytes: the file above the line, so that the next line of a file is one more.
    package var packed: UInt64 { UInt64(file) << 48 | UInt64(line) }

    package init(packed: UInt64) {
        file = Int(packed >> 48)
        line = Int(packed & 0xFFFF_FFFF_FFFF)
    }
}

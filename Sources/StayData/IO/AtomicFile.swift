#if canImport(Glibc)
import Glibc
#endif

/// Replacing a file whole: the new contents go to a temporary file beside it, are flushed to disk, and
/// the temporary file is renamed over the old one (and the folder synced), so a crash or kill at any
/// moment leaves either the old file or the new one, never a part.
public enum AtomicFile {
    /// Writes `path` through `write`, which is given the open temporary file.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``, or what `write` throws; the temporary file is
    ///   then removed and `path` left as it was.
    public static func replace(_ path: String, _ write: (FileDescriptor) throws(DataError) -> Void) throws(DataError) {
        let folder = Self.folder(of: path)
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = try FileDescriptor.create(temporary, exclusive: true, reportingAs: path)
        do throws(DataError) {
            try write(file)
            try file.sync()
            file.close()
            try FileDescriptor.rename(temporary, to: path)
        } catch {
            file.close()
            unlink(temporary)
            throw error
        }
        FileDescriptor.syncFolder(folder)
    }

    /// Writes `bytes` as the whole of `path` (see ``replace(_:_:)``).
    public static func write(_ bytes: [UInt8], to path: String) throws(DataError) {
        try replace(path) { file throws(DataError) in try file.writeAll(bytes) }
    }

    /// The folder `path` is in.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

import StayData

/// Writing the files a command or route makes.
package enum FileOutput {
    /// Writes `bytes` as the whole of `path` (``AtomicFile``: an earlier file survives a failed write).
    /// - Throws: ``CommandFailure`` with the file's error.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        do throws(DataError) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw CommandFailure(message: error.description, code: 1)
        }
    }
}

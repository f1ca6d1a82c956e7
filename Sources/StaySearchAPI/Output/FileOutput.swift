import StayData

#if canImport(Glibc)
import Glibc
#endif

/// Writing the files a command or route makes.
package enum FileOutput {
    /// Writes `bytes` to `path` through a temporary file renamed into place.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        do throws(DataError) {
            let file = try FileDescriptor.create(temporary, reportingAs: path)
            do throws(DataError) {
                try file.writeAll(bytes)
                file.close()
                try FileDescriptor.rename(temporary, to: path)
            } catch {
                unlink(temporary)
                throw error
            }
        } catch {
            throw CommandFailure(message: error.description, code: 1)
        }
    }
}

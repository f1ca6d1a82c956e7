#if canImport(Glibc)
import Glibc
#endif
import StayData

/// Writing to the standard streams, and what they are connected to.
package enum Standard {
    /// Writes a line to standard error.
    package static func error(_ line: String) {
        writeAll(line + "\n", to: 2)
    }

    /// Writes text to standard error as it is (for progress lines).
    package static func errorWithoutNewline(_ text: String) {
        writeAll(text, to: 2)
    }

    /// Writes text to standard output as it is.
    package static func write(_ text: String) {
        writeAll(text, to: 1)
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        // A failure (say, a closed pipe) leaves nothing more to write to.
        let stream = FileDescriptor(borrowing: descriptor, path: descriptor == 1 ? "standard output" : "standard error")
        text.withUTF8 { bytes in try? stream.writeAll(UnsafeRawBufferPointer(bytes)) }
    }

    /// Whether standard error is a terminal.
    package static var errorIsTerminal: Bool { isatty(2) == 1 }

    /// Seconds since an arbitrary start, for timing.
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The resident set size high-water mark in bytes.
    package static func peakMemory() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

extension String {
    /// A number with at most three decimals, e.g. `12.345`.
    package init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let fraction = abs(thousandths % 1000)
        self = "\(thousandths / 1000).\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
    }
}

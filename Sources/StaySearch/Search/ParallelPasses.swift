import Dispatch

/// Passes over a large buffer cut into stretches, one thread each: the histogram's passes over a
/// query's values use both cores when the scan did.
enum ParallelPasses {
    /// The fewest values worth a thread of their own.
    static let minimumPerPart = 65_536

    /// How many stretches `count` values are cut into for at most `threads` threads.
    static func partCount(values count: Int, threads: Int) -> Int {
        max(1, min(threads, count / minimumPerPart))
    }

    /// Stretch `part` of `parts` over `count` values.
    static func stretch(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// Runs `body` for each part, at once on their own threads when there are several.
    static func run(parts: Int, _ body: @Sendable (Int) -> Void) {
        if parts == 1 {
            body(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: parts, execute: body)
        }
    }
}

/// A buffer that several threads of one pass write, each its own elements only.
struct SharedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
}

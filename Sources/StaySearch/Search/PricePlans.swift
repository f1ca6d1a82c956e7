/// For one stay, how the rows of each price shape (``PriceShapes``) take their total: from the one plain
/// run of the shape that holds every night of the stay, when there is one; else from the runs the stay
/// crosses, each for its nights (``segments``). Written into memory the scan lends (``wordCount`` words),
/// once for each range of rows it visits, as the stay rule verdicts are.
struct PricePlans {
    /// Per shape byte (all 256, ``PriceShapes/readRow`` included): *p* ≥ 0, the position among the
    /// row's runs of the one plain run holding every night (the total is its price × nights);
    /// ``bySegments``, the total is summed over the shape's ``segments``; ``readRuns``, the row's runs
    /// are read.
    let plans: UnsafePointer<Int32>
    /// Per shape, where its segments start in ``segments``: shape *s*'s are `segmentOffsets[s] ..<
    /// segmentOffsets[s + 1]`.
    let segmentOffsets: UnsafePointer<Int32>
    /// ``segmentWords`` words per segment: the run's position among the row's runs, the stay's nights in
    /// it, and those nights on each weekday slot of a weekly pattern, Monday first.
    let segments: UnsafePointer<Int32>

    /// A plan that reads the row's runs.
    static let readRuns: Int32 = -1
    /// A plan that sums the shape's segments.
    static let bySegments: Int32 = -2
    /// Words per segment.
    static let segmentWords = 9
    /// The most segments the plans hold; a shape whose segments would not fit reads its rows' runs.
    static let segmentCapacity = 1_024
    /// The words the plans take: the plans, the segments' offsets, the segments, and the whole stay's nights
    /// by weekday slot.
    static let wordCount = 256 + 257 + segmentCapacity * segmentWords + 7

    /// Writes the plans for a stay on the day offsets `start ..< end` (inside the calendar, not empty),
    /// day offset 0 falling on `firstWeekday` (0 = Monday), into `memory` (``wordCount`` words).
    init(shapes: PriceShapes, from start: Int, to end: Int, firstWeekday: Int, memory: UnsafeMutablePointer<Int32>) {
        let plans = memory, offsets = memory + 256, segments = memory + 256 + 257
        shapes.runOffsets.withUnsafeBufferPointer { runOffsets in
            shapes.runStarts.withUnsafeBufferPointer { runStarts in
                shapes.runIsPattern.withUnsafeBufferPointer { runIsPattern in
                    PricePlans.write(shapes: (runOffsets, runStarts, runIsPattern), from: start, to: end, firstWeekday: firstWeekday,
                                     plans: plans, offsets: offsets, segments: segments,
                                     wholeStay: memory + PricePlans.wordCount - 7)
                }
            }
        }
        self.plans = UnsafePointer(plans)
        segmentOffsets = UnsafePointer(offsets)
        self.segments = UnsafePointer(segments)
    }

    /// Writes each shape's plan, its segments' offsets and its segments (``PriceShapes``' columns
    /// `shapes`: run offsets, run starts, whether each run is a weekly pattern), the stay's nights by weekday
    /// slot going to `wholeStay` first.
    private static func write(shapes: (runOffsets: UnsafeBufferPointer<Int>, runStarts: UnsafeBufferPointer<Int32>,
                                       runIsPattern: UnsafeBufferPointer<Bool>),
                              from start: Int, to end: Int, firstWeekday: Int, plans: UnsafeMutablePointer<Int32>,
                              offsets: UnsafeMutablePointer<Int32>, segments: UnsafeMutablePointer<Int32>,
                              wholeStay: UnsafeMutablePointer<Int32>) {
        let (runOffsets, runStarts, runIsPattern) = shapes
        plans.initialize(repeating: readRuns, count: 256)
        offsets[0] = 0
        // For the pattern runs that hold all of the stay.
        writeWeekdayNights(from: start, to: end, firstWeekday: firstWeekday, into: wholeStay)
        var count = 0
        for shape in 0..<(runOffsets.count - 1) {
            let runs = runOffsets[shape]..<runOffsets[shape &+ 1]
            let before = count
            var isPlainOne = true
            // Only the runs the stay crosses: from the last run starting on or before its first night (a
            // shape's runs start in order, the first on day 0), while they start before its end.
            var run = lastRun(startingBy: start, in: runs, of: runStarts)
            while run < runs.upperBound, Int(runStarts[run]) < end {
                defer { run &+= 1 }
                let runEnd = run &+ 1 < runs.upperBound ? Int(runStarts[run &+ 1]) : Int.max
                let from = max(start, Int(runStarts[run])), to = min(end, runEnd)
                guard from < to else { continue }
                guard count < segmentCapacity else {
                    count = segmentCapacity + 1          // no room: this shape reads its runs
                    break
                }
                let holdsWholeStay = from == start && to == end
                if runIsPattern[run] || !holdsWholeStay { isPlainOne = false }
                let words = segments + count &* segmentWords
                words[0] = Int32(run &- runs.lowerBound)
                words[1] = Int32(to &- from)
                // A weekly pattern's nights by weekday slot; a plain run's are never read (every row of the
                // shape has a plain price there).
                if runIsPattern[run] {
                    if holdsWholeStay {
                        (words + 2).update(from: wholeStay, count: 7)
                    } else {
                        writeWeekdayNights(from: from, to: to, firstWeekday: firstWeekday, into: words + 2)
                    }
                }
                count &+= 1
            }
            if count > segmentCapacity {
                count = before
            } else if isPlainOne, count == before &+ 1 {
                plans[shape] = segments[before &* segmentWords]
            } else {
                plans[shape] = bySegments
            }
            offsets[shape &+ 1] = Int32(count)
        }
    }

    /// Writes the nights of day offsets `from ..< to` on each weekday slot (Monday first; day offset 0 on
    /// `firstWeekday`) to `slots[0 ..< 7]`: each slot holds the whole weeks, and the first nights % 7 slots
    /// from the first night's one more.
    static func writeWeekdayNights(from: Int, to: Int, firstWeekday: Int, into slots: UnsafeMutablePointer<Int32>) {
        let nights = to - from
        let firstSlot = (firstWeekday + from) % 7
        for slot in 0..<7 {
            slots[slot] = Int32(nights / 7 + ((slot - firstSlot + 7) % 7 < nights % 7 ? 1 : 0))
        }
    }

    /// The last of `runs` whose start (`starts[run]`, ascending) is at most `day`, or the first of them when
    /// none is; found by halving.
    static func lastRun(startingBy day: Int, in runs: Range<Int>, of starts: UnsafeBufferPointer<Int32>) -> Int {
        var low = runs.lowerBound, high = runs.upperBound      // the answer is in low ..< high, or the first
        while high &- low > 1 {
            let middle = low &+ (high &- low) &>> 1
            if Int(starts[middle]) <= day { low = middle } else { high = middle }
        }
        return low
    }
}

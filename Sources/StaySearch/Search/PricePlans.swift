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
    /// The words the plans take.
    static let wordCount = 256 + 257 + segmentCapacity * segmentWords

    /// Writes the plans for a stay on the day offsets `start ..< end` (inside the calendar, not empty),
    /// day offset 0 falling on `firstWeekday` (0 = Monday), into `memory` (``wordCount`` words).
    init(shapes: PriceShapes, from start: Int, to end: Int, firstWeekday: Int, memory: UnsafeMutablePointer<Int32>) {
        let plans = memory, offsets = memory + 256, segments = memory + 256 + 257
        plans.initialize(repeating: PricePlans.readRuns, count: 256)
        var count = 0
        offsets[0] = 0
        for shape in 0..<shapes.count {
            let runs = shapes.runOffsets[shape]..<shapes.runOffsets[shape + 1]
            let before = count
            var isPlainOne = true
            for run in runs {
                let runStart = Int(shapes.runStarts[run])
                let runEnd = run + 1 < runs.upperBound ? Int(shapes.runStarts[run + 1]) : Int.max
                let from = max(start, runStart), to = min(end, runEnd)
                guard from < to else { continue }
                guard count < PricePlans.segmentCapacity else {
                    count = PricePlans.segmentCapacity + 1          // no room: this shape reads its runs
                    break
                }
                if shapes.runIsPattern[run] || from != start || to != end { isPlainOne = false }
                let words = segments + count * PricePlans.segmentWords
                let nights = to - from
                words[0] = Int32(run - runs.lowerBound)
                words[1] = Int32(nights)
                // Each weekday slot holds the whole weeks, and the first nights % 7 slots from the first one more.
                let firstSlot = (firstWeekday + from) % 7
                for slot in 0..<7 {
                    words[2 + slot] = Int32(nights / 7 + ((slot - firstSlot + 7) % 7 < nights % 7 ? 1 : 0))
                }
                count += 1
            }
            if count > PricePlans.segmentCapacity {
                count = before
            } else if isPlainOne, count == before + 1 {
                plans[shape] = segments[before * PricePlans.segmentWords]
            } else {
                plans[shape] = PricePlans.bySegments
            }
            offsets[shape + 1] = Int32(count)
        }
        self.plans = UnsafePointer(plans)
        segmentOffsets = UnsafePointer(offsets)
        self.segments = UnsafePointer(segments)
    }
}

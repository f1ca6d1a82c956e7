/// For one stay, how the rows of each price shape (``PriceShapes``) take their total: from the one plain
/// run of the shape that holds every night of the stay, when there is one; else from the runs the stay
/// crosses, each for its nights (``segments``). Made once per scan.
final class PricePlans {
    /// Per shape byte (all 256, ``PriceShapes/readRow`` included): *p* ≥ 0, the position among the
    /// row's runs of the one plain run holding every night (the total is its price × nights);
    /// ``bySegments``, the total is summed over the shape's ``segments``; ``readRuns``, the row's runs
    /// are read.
    let plans: UnsafeMutablePointer<Int32>
    /// Per shape, where its segments start in ``segments`` (`count + 1` entries; a shape's segments are
    /// `segmentOffsets[s] ..< segmentOffsets[s + 1]`).
    let segmentOffsets: UnsafeMutablePointer<Int32>
    /// ``segmentWords`` words per segment: the run's position among the row's runs, the stay's nights in
    /// it, and those nights on each weekday slot of a weekly pattern, Monday first.
    let segments: UnsafeMutablePointer<Int64>
    private let shapeCount: Int
    private let segmentCount: Int

    /// A plan that reads the row's runs.
    static let readRuns: Int32 = -1
    /// A plan that sums the shape's segments.
    static let bySegments: Int32 = -2
    /// Words per segment.
    static let segmentWords = 9

    /// The plans for a stay on the day offsets `start ..< end` (inside the calendar, not empty), day
    /// offset 0 falling on `firstWeekday` (0 = Monday).
    init(shapes: PriceShapes, from start: Int, to end: Int, firstWeekday: Int) {
        shapeCount = shapes.count
        plans = .allocate(capacity: 256)
        plans.initialize(repeating: PricePlans.readRuns, count: 256)
        segmentOffsets = .allocate(capacity: shapeCount + 1)
        // Every run the stay crosses, for every shape: at most the shapes' runs.
        var crossed: [(position: Int32, from: Int, to: Int)] = []
        var offsets: [Int32] = [0]
        for shape in 0..<shapeCount {
            let runs = shapes.runOffsets[shape]..<shapes.runOffsets[shape + 1]
            let before = crossed.count
            var isPlainOne = true
            for run in runs {
                let runStart = Int(shapes.runStarts[run])
                let runEnd = run + 1 < runs.upperBound ? Int(shapes.runStarts[run + 1]) : Int.max
                let from = max(start, runStart), to = min(end, runEnd)
                guard from < to else { continue }
                crossed.append((Int32(run - runs.lowerBound), from, to))
                if shapes.runIsPattern[run] || from != start || to != end { isPlainOne = false }
            }
            offsets.append(Int32(crossed.count))
            plans[shape] = isPlainOne && crossed.count == before + 1 ? crossed[before].position : PricePlans.bySegments
        }
        segmentOffsets.initialize(from: offsets, count: offsets.count)
        segmentCount = crossed.count
        segments = .allocate(capacity: max(1, segmentCount) * PricePlans.segmentWords)
        segments.initialize(repeating: 0, count: max(1, segmentCount) * PricePlans.segmentWords)
        for (k, segment) in crossed.enumerated() {
            let words = segments + k * PricePlans.segmentWords
            let nights = segment.to - segment.from
            words[0] = Int64(segment.position)
            words[1] = Int64(nights)
            // Each weekday slot holds the whole weeks, and the first nights % 7 slots from the first one more.
            let firstSlot = (firstWeekday + segment.from) % 7
            for slot in 0..<7 {
                let extra = (slot - firstSlot + 7) % 7 < nights % 7 ? 1 : 0
                words[2 + slot] = Int64(nights / 7 + extra)
            }
        }
    }

    /// The plans' memory, for a scan's loop (valid while the plans are alive).
    var view: View { View(plans: plans, segmentOffsets: segmentOffsets, segments: segments) }

    /// Pointers to a scan's ``PricePlans``.
    struct View {
        let plans: UnsafePointer<Int32>
        let segmentOffsets: UnsafePointer<Int32>
        let segments: UnsafePointer<Int64>

        init(plans: UnsafeMutablePointer<Int32>, segmentOffsets: UnsafeMutablePointer<Int32>, segments: UnsafeMutablePointer<Int64>) {
            self.plans = UnsafePointer(plans)
            self.segmentOffsets = UnsafePointer(segmentOffsets)
            self.segments = UnsafePointer(segments)
        }
    }

    deinit {
        plans.deallocate()
        segmentOffsets.deallocate()
        segments.deallocate()
    }
}

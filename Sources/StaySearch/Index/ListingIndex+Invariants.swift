/// Why stored columns do not make a sound index.
package struct IndexCorruption: Error, Equatable, CustomStringConvertible {
    /// What is wrong, for a person: "the price runs are out of order".
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    package var description: String { reason }
}

extension IndexStorage {
    /// Checks everything the search relies on: each column's length, offsets that rise and end where
    /// they should, runs that start at day 0 and stay inside the calendar, weekly patterns that exist,
    /// region ranges that nest, and per-row codes that point into their tables. Always run on storage
    /// from outside the engine (a loaded file); in debug builds also after every build.
    /// - Throws: ``IndexCorruption`` naming the first check that fails.
    /// - Complexity: O(*n*) in the size of the storage.
    package func checkInvariants(shape: IndexShape) throws(IndexCorruption) {
        guard shape.rows >= 0, shape.rows <= Int(Int32.max), shape.dayCount >= 0, shape.dayCount <= 1_000_000 else {
            throw IndexCorruption("implausible sizes: \(shape.rows) listings, \(shape.dayCount) days")
        }
        for column in IndexStorage.table {
            guard let expected = column.length.expected(for: shape) else { continue }
            let count = column.count(self)
            guard count == expected else {
                throw IndexCorruption("section \(column.name) has \(count) elements, expected \(expected)")
            }
        }
        let rows = shape.rows
        try Self.checkOffsets(nameOffsets, count: rows, total: nameBytes.count, what: "listing name")

        guard roomTypeNameOffsets.count >= 1, roomTypeNameOffsets.count <= 256 else {
            throw IndexCorruption("the room type table is damaged")
        }
        let roomTypeCount = roomTypeNameOffsets.count - 1
        try Self.checkOffsets(roomTypeNameOffsets, count: roomTypeCount, total: roomTypeNameBytes.count, what: "room type")

        guard nodeNameOffsets.count >= 1 else { throw IndexCorruption("the region table is damaged") }
        let nodeCount = nodeNameOffsets.count - 1
        try Self.checkOffsets(nodeNameOffsets, count: nodeCount, total: nodeNameBytes.count, what: "region name")
        for (column, name) in [(nodeLevels.count, "region levels"), (nodeParents.count, "region parents"),
                               (nodeRowStarts.count, "region row starts"), (nodeRowEnds.count, "region row ends")]
        where column != nodeCount {
            throw IndexCorruption("section \(name) has \(column) elements, expected \(nodeCount)")
        }
        try checkRegionNodes(count: nodeCount, rows: rows)
        try checkRowCodes(rows: rows, nodeCount: nodeCount, roomTypeCount: roomTypeCount)
        try checkListingDetails(shape: shape)
        try checkNeighbourhoodShapes()
        try checkRegionAliases(nodeCount: nodeCount)
        try checkFees(shape: shape)

        let priceRuns = DayRuns(offsets: priceRunOffsets, starts: priceRunStarts, values: priceRunValues,
                                patterns: pricePatterns, firstWeekday: 0)
        try Self.checkRuns(priceRuns, rows: rows, dayCount: shape.dayCount, what: "price")
        try checkDensePrices(rows: rows, dayCount: shape.dayCount)
        try checkWidePrices()
        let ruleRuns = DayRuns(offsets: ruleRunOffsets, starts: ruleRunStarts, values: ruleRunValues,
                               patterns: rulePatterns, firstWeekday: 0)
        try Self.checkRuns(ruleRuns, rows: rows, dayCount: shape.dayCount, what: "stay rule")
    }

    /// Dense price rows: `dayCount + 1` running sums, a window inside the calendar, a dearest and a cheapest night each,
    /// each row referred to by one row whose only run it is.
    private func checkDensePrices(rows: Int, dayCount: Int) throws(IndexCorruption) {
        let denseRows = denseWindows.count
        guard densePrices.count == (denseRows == 0 ? 0 : (dayCount + 1) * denseRows), denseMaxima.count == denseRows,
              denseRows == 0 || dayCount <= NightPrices.longestDenseCalendar else {
            throw IndexCorruption("the dense prices are not whole rows")
        }
        guard denseMinima.count == denseRows || denseMinima.count == 0,
              denseMinima.count == 0 || denseMinima.withUnsafeBufferPointer({ minima in denseMaxima.withUnsafeBufferPointer { maxima in
                  zip(minima, maxima).allSatisfy { $0 <= $1 } } }) else {
            throw IndexCorruption("a dense price row's cheapest night is not one per row at or below its dearest")
        }
        guard denseScales.count == denseRows || denseScales.count == 0,
              denseScales.withUnsafeBufferPointer({ $0.allSatisfy { $0 <= NightPrices.largestScale } }) else {
            throw IndexCorruption("a dense price row's unit is not one the index knows")
        }
        // A row's base and dearest code stay within the largest price, so that no stay's total overflows.
        let basesFit = denseBases.count == 0 || (denseBases.count == denseRows && (0..<denseRows).allSatisfy { rank in
            let unit = NightPrices.unitOfScale[Int(denseScales.count == 0 ? NightPrices.wholeUnitScale : denseScales[rank])]
            return (Int64(denseBases[rank]) + Int64(denseMaxima[rank])) * unit <= Money.largest.minorUnits
        })
        guard basesFit else {
            throw IndexCorruption("a dense price row's base is not one per row, or puts its dearest night past the largest price")
        }
        // A bit per dense row (none past the last), and the carries of as many rows as bits are set.
        let carried = denseCarriedRows.withUnsafeBufferPointer { $0.reduce(0) { $0 + $1.nonzeroBitCount } }
        let pastLast = denseCarriedRows.count == 0 || denseRows % 64 == 0 ? 0 : denseCarriedRows[denseCarriedRows.count - 1] >> UInt64(denseRows % 64)
        guard denseCarriedRows.count == (denseRows + 63) / 64 || (denseCarriedRows.count == 0 && denseCarries.count == 0), pastLast == 0,
              denseCarries.count == (carried == 0 ? 0 : (dayCount + 1) * carried) else {
            throw IndexCorruption("the carries of the dense prices are not whole rows of the dense rows carried")
        }
        let windowsFit = denseWindows.withUnsafeBufferPointer { windows in
            windows.allSatisfy { $0 & 0xFFFF <= $0 >> 16 && Int($0 >> 16) <= dayCount }
        }
        guard windowsFit else { throw IndexCorruption("a dense price row's days lie outside the calendar") }
        var referred = 0
        let sound = priceRunValues.withUnsafeBufferPointer { values in
            priceRunOffsets.withUnsafeBufferPointer { offsets in
                for row in 0..<rows {
                    let first = Int(offsets[row]), end = Int(offsets[row + 1])
                    for run in first..<end {
                        guard let dense = values[run].denseIndex else { continue }
                        guard run == first, end == first + 1, dense == referred, dense < denseRows else { return false }
                        referred += 1
                    }
                }
                return true
            }
        }
        guard sound, referred == denseRows else { throw IndexCorruption("the dense prices and their rows do not match") }
    }

    /// Wide prices (``WidePrices``): ascending amounts from ``WidePrices/firstReference`` to ``Money/largest``, and
    /// every stored price at or above the first reference (runs, base and listing prices) refers to one; weekly
    /// patterns hold none.
    private func checkWidePrices() throws(IndexCorruption) {
        let ordered = widePrices.withUnsafeBufferPointer { amounts in
            amounts.indices.allSatisfy { index in
                amounts[index] >= Int64(WidePrices.firstReference) && amounts[index] <= Money.largest.minorUnits
                    && (index == 0 || amounts[index - 1] < amounts[index])
            }
        }
        guard ordered else { throw IndexCorruption("the wide prices are not ascending amounts from 20,803,747.84 to 1,000,000,000.00") }
        let end = Int64(WidePrices.firstReference) + Int64(widePrices.count)
        for (column, name) in [(priceRunValues, "price runs"), (basePrices, "base prices"), (listingPrices, "listing prices")] {
            let sound = column.withUnsafeBufferPointer { $0.allSatisfy { Int64($0) < end } }
            guard sound else {
                throw IndexCorruption(widePrices.count == 0
                    ? "the \(name) hold prices from 20,803,747.84 up without the wide prices they need (an index of format 10 or older with such prices: import it again)"
                    : "the \(name) refer to a wide price that is not there")
            }
        }
        guard pricePatterns.withUnsafeBufferPointer({ $0.allSatisfy { $0 < WidePrices.firstReference } }) else {
            throw IndexCorruption("a weekly price pattern holds a wide price")
        }
    }

    /// Region nodes: parents come first, levels go down, ranges nest inside their parent's.
    private func checkRegionNodes(count: Int, rows: Int) throws(IndexCorruption) {
        for node in 0..<count {
            guard let level = RegionNode.Level(rawValue: nodeLevels[node]) else {
                throw IndexCorruption("region \(node) has an unknown level")
            }
            let parent = Int(nodeParents[node])
            let start = nodeRowStarts[node], end = nodeRowEnds[node]
            guard start >= 0, start <= end, end <= Int64(rows) else {
                throw IndexCorruption("region \(node) covers rows outside the index")
            }
            if parent < 0 {
                guard parent == -1, level == .city else { throw IndexCorruption("region \(node) has no parent but is not a city") }
            } else {
                guard parent < node, nodeLevels[node] > nodeLevels[parent],
                      nodeRowStarts[parent] <= start, end <= nodeRowEnds[parent] else {
                    throw IndexCorruption("region \(node) does not sit inside its parent")
                }
            }
        }
    }

    /// Per-row codes point into their tables, and each row lies inside its region's range.
    private func checkRowCodes(rows: Int, nodeCount: Int, roomTypeCount: Int) throws(IndexCorruption) {
        let sound = regionNodes.withUnsafeBufferPointer { regionNodes in
            roomTypes.withUnsafeBufferPointer { roomTypes in
                for row in 0..<rows {
                    let node = Int(regionNodes[row])
                    guard node >= 0, node < nodeCount, nodeRowStarts[node] <= Int64(row), Int64(row) < nodeRowEnds[node],
                          Int(roomTypes[row]) < roomTypeCount else { return false }
                }
                return true
            }
        }
        guard sound else { throw IndexCorruption("a listing points outside the region or room type tables") }
    }

    /// Property types and amenities point into their tables; each row's amenities rise; the amenity bit
    /// sets are whole and no more than the amenities.
    private func checkListingDetails(shape: IndexShape) throws(IndexCorruption) {
        guard propertyTypeNameOffsets.count >= 1, propertyTypeNameOffsets.count <= Int(ListingIndex.noPropertyType) else {
            throw IndexCorruption("the property type table is damaged")
        }
        let propertyTypeCount = propertyTypeNameOffsets.count - 1
        try Self.checkOffsets(propertyTypeNameOffsets, count: propertyTypeCount, total: propertyTypeNameBytes.count,
                              what: "property type")
        guard amenityNameOffsets.count >= 1, amenityNameOffsets.count <= Int(UInt16.max) else {
            throw IndexCorruption("the amenity table is damaged")
        }
        let amenityCount = amenityNameOffsets.count - 1
        try Self.checkOffsets(amenityNameOffsets, count: amenityCount, total: amenityNameBytes.count, what: "amenity name")
        try Self.checkOffsets(amenityOffsets, count: shape.rows, total: amenityCodes.count, what: "amenity")
        let typesSound = propertyTypes.withUnsafeBufferPointer { types in
            types.allSatisfy { $0 == ListingIndex.noPropertyType || Int($0) < propertyTypeCount }
        }
        guard typesSound else { throw IndexCorruption("a listing points outside the property type table") }
        let amenitiesSound = amenityCodes.withUnsafeBufferPointer { codes in
            amenityOffsets.withUnsafeBufferPointer { offsets in
                for row in 0..<shape.rows {
                    var previous = -1
                    for position in Int(offsets[row])..<Int(offsets[row + 1]) {
                        let code = Int(codes[position])
                        guard code > previous, code < amenityCount else { return false }
                        previous = code
                    }
                }
                return true
            }
        }
        guard amenitiesSound else { throw IndexCorruption("a listing's amenities are out of order or outside the amenity table") }
        let words = shape.wordsPerDay
        guard words == 0 ? amenityBitSets.count == 0 : amenityBitSets.count % words == 0 && amenityBitSets.count / words <= amenityCount else {
            throw IndexCorruption("the amenity bit sets are not whole")
        }
    }

    /// Region aliases: a name for each, and a node of the tree.
    private func checkRegionAliases(nodeCount: Int) throws(IndexCorruption) {
        try Self.checkOffsets(aliasNameOffsets, count: aliasNodes.count, total: aliasNameBytes.count, what: "region alias")
        let sound = aliasNodes.withUnsafeBufferPointer { nodes in nodes.allSatisfy { $0 >= 0 && Int($0) < nodeCount } }
        guard sound else { throw IndexCorruption("a region alias names a region the index does not have") }
    }

    /// Neighbourhood shapes: names and cities for each, rings and points that add up.
    private func checkNeighbourhoodShapes() throws(IndexCorruption) {
        guard shapeRingStarts.count >= 1, shapeNameOffsets.count == shapeRingStarts.count,
              shapeCityOffsets.count == shapeRingStarts.count, ringPointStarts.count >= 1,
              shapeLatitudes.count == shapeLongitudes.count else {
            throw IndexCorruption("the neighbourhood shapes are damaged")
        }
        let shapes = shapeRingStarts.count - 1
        try Self.checkOffsets(shapeNameOffsets, count: shapes, total: shapeNameBytes.count, what: "shape name")
        try Self.checkOffsets(shapeCityOffsets, count: shapes, total: shapeCityBytes.count, what: "shape city")
        try Self.checkOffsets(shapeRingStarts, count: shapes, total: ringPointStarts.count - 1, what: "shape ring")
        try Self.checkOffsets(ringPointStarts, count: ringPointStarts.count - 1, total: shapeLatitudes.count, what: "ring point")
    }

    /// Checks that `offsets` has `count + 1` rising values from 0 to `total` (strictly rising with
    /// `atLeastOne`).
    private static func checkOffsets(_ offsets: Column<UInt32>, count: Int, total: Int, what: String,
                                     atLeastOne: Bool = false) throws(IndexCorruption) {
        guard offsets.count == count + 1, offsets[0] == 0, Int(offsets[count]) == total else {
            throw IndexCorruption("the \(what) offsets do not add up")
        }
        let rising = offsets.withUnsafeBufferPointer { buffer in
            for index in 0..<count where atLeastOne ? buffer[index] >= buffer[index + 1] : buffer[index] > buffer[index + 1] {
                return false
            }
            return true
        }
        guard rising else { throw IndexCorruption("the \(what) offsets are out of order") }
    }

    /// Every row has at least one run, the first at day 0, the others rising inside the calendar, and
    /// every pattern reference points at a pattern.
    private static func checkRuns<Value>(_ runs: DayRuns<Value>, rows: Int, dayCount: Int, what: String) throws(IndexCorruption) {
        try checkOffsets(runs.offsets, count: rows, total: runs.starts.count, what: "\(what) run", atLeastOne: true)
        guard runs.values.count == runs.starts.count, runs.patterns.count % 7 == 0 else {
            throw IndexCorruption("the \(what) runs do not add up")
        }
        let patternCount = runs.patterns.count / 7
        let referencesSound = runs.values.withUnsafeBufferPointer { values in
            values.allSatisfy { value in value.patternIndex.map { $0 < patternCount } ?? true }
        }
        guard referencesSound else { throw IndexCorruption("a \(what) run refers to a weekly pattern that is not there") }
        let sound = runs.starts.withUnsafeBufferPointer { starts in
            runs.offsets.withUnsafeBufferPointer { offsets in
                for row in 0..<rows {
                    let first = Int(offsets[row]), end = Int(offsets[row + 1])
                    guard starts[first] == 0 else { return false }
                    var previous: Int32 = 0
                    for run in (first + 1)..<max(first + 1, end) {
                        guard starts[run] > previous, Int(starts[run]) < dayCount else { return false }
                        previous = starts[run]
                    }
                }
                return true
            }
        }
        guard sound else { throw IndexCorruption("the \(what) runs are out of order") }
    }
}

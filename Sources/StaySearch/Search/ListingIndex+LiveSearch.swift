extension ListingIndex {
    /// One pass of `query` (validated) over this index's visible rows and the live overlay's rows, merged
    /// as the parts of one scan are: values side by side, collectors summed, pages merged. Overlay rows
    /// are numbered from ``count`` on in the page and the matched rows.
    ///
    /// A region, room type, property type or amenity that only one of the two indexes knows simply
    /// matches nothing in the other; the query fails only when neither knows it.
    func scanWithOverlay<Answer>(_ query: SearchQuery, split: PartSplit, collectsRows: Bool, live: LiveParts,
                                 _ use: (ScanOutcome, UnsafeMutableBufferPointer<Int64>) -> Answer) throws(QueryError) -> (answer: Answer, rows: [Int32]) {
        let overlay = live.overlay
        // Names each index does not know (the frozen one: with no visible listing); a name neither knows
        // fails the query as a fresh import of the listings as they are now would.
        let baseUnknown = unknownNames(in: query, live: live)
        let overlayUnknown = overlay?.unknownNames(in: query) ?? baseUnknown
        for name in query.names where baseUnknown[name] != nil && overlayUnknown[name] != nil {
            throw unknownNameError(name, live: live)
        }
        var basePlan: ScanPlan?
        var overlayPlan: ScanPlan?
        if let narrowed = query.narrowed(toNamesKnownBy: baseUnknown) {
            basePlan = try ScanPlan(narrowed, index: self, rowMask: live.visibleRows)
        }
        if let overlay, let narrowed = query.narrowed(toNamesKnownBy: overlayUnknown) {
            overlayPlan = try ScanPlan(narrowed, index: overlay)
        }

        let baseRows = basePlan?.rowCount ?? 0
        let overlayRows = overlayPlan?.rowCount ?? 0
        let values = ScratchPool.shared.take(Int64.self, count: baseRows + overlayRows)
        defer { ScratchPool.shared.giveBack(values) }
        let rowSlots = collectsRows ? ScratchPool.shared.take(Int32.self, count: baseRows + overlayRows) : nil
        defer { rowSlots.map { ScratchPool.shared.giveBack($0) } }
        let valueRows = query.sort == .recommended && query.limit > 0
            ? ValueRowSlots.allocate(capacity: baseRows + overlayRows, withCheckIns: query.isFlexible) : nil
        defer { valueRows?.deallocate() }

        // The frozen rows' parts have the first tables, the overlay the last.
        let basePartCount = basePlan == nil ? 0 : split.parts(of: baseRows)
        // The recommended order keeps its values (as every live scan does) and counts them into price slots too.
        let slotTables = PriceSlotTables(query: query, rows: baseRows + overlayRows, parts: basePartCount + (overlayPlan == nil ? 0 : 1),
                                         index: self, minimumRows: split.minimumRowsForPriceSlots)
        defer { slotTables?.giveBack() }
        var parts: [ScanOutcome.Part] = []
        if let plan = basePlan {
            let partCount = basePartCount
            if partCount > 1 {
                let split = ScanParts(ranges: plan.ranges, rowCount: baseRows, count: partCount)
                let scans = split.scanInParallel(index: self, query: query, roomCode: plan.roomCode, filter: plan.filter,
                                                 values: UnsafeMutableBufferPointer(rebasing: values[0..<max(1, baseRows)]),
                                                 rowSlots: rowSlots.map { UnsafeMutableBufferPointer(rebasing: $0[0..<max(1, baseRows)]) },
                                                 valueRows: valueRows, slotTables: slotTables)
                for (scan, start) in zip(scans, split.valueStarts) { parts.append(ScanOutcome.Part(scan: scan, start: start)) }
            } else {
                var scan = Scan(index: self, query: query, roomCode: plan.roomCode, filter: plan.filter,
                                values: UnsafeMutableBufferPointer(rebasing: values[0..<baseRows]), rowSlots: rowSlots?.baseAddress,
                                valueRows: valueRows, slotTables: slotTables)
                scan.visit(plan.ranges)
                parts.append(ScanOutcome.Part(scan: scan, start: 0))
            }
        }
        if let plan = overlayPlan, let overlay {
            var scan = Scan(index: overlay, query: query, roomCode: plan.roomCode, filter: plan.filter,
                            values: UnsafeMutableBufferPointer(rebasing: values[baseRows..<(baseRows + overlayRows)]),
                            rowSlots: rowSlots.map { $0.baseAddress! + baseRows }, valueRows: valueRows?.advanced(by: baseRows),
                            slotTables: slotTables, part: basePartCount)
            scan.visit(plan.ranges)
            parts.append(ScanOutcome.Part(scan: scan, start: baseRows, rowShift: Int32(count)))
        }
        var outcome = ScanOutcome(merging: parts, values: values, rowSlots: rowSlots, valueRows: valueRows, threads: split.threads)
        if let valueRows {
            outcome.gatherValues(in: values)
            let kept = UnsafeBufferPointer(rebasing: values[0..<outcome.valueCount])
            let median = medianWithHistogramEnd(query, outcome: &outcome, values: kept, wholeUnits: overlay == nil && valuesAreWholeUnits(query))
            outcome.page = recommendedPage(query, values: kept, matches: outcome.total, bounds: outcome.bounds, slots: valueRows,
                                           priceSlots: outcome.countedSlots, knownMedian: median, overlay: overlay,
                                           hiddenRatings: live.frozenNames?.hiddenRatings, threads: split.threads)
        }
        if slotTables != nil, !outcome.countHistogram(of: query), valueRows == nil {
            // The slots could not tell the histogram, and the values were not kept: the scan again, keeping them.
            var keeping = split
            keeping.minimumRowsForPriceSlots = Int.max
            return try scanWithOverlay(query, split: keeping, collectsRows: collectsRows, live: live, use)
        }
        return (use(outcome, values), outcome.matchedRows)
    }
}

/// A name a query uses: its kind and the name.
struct QueryName: Hashable {
    enum Kind: Hashable { case region, roomType, propertyType, amenity }
    var kind: Kind
    var name: String
}

extension ListingIndex {
    /// The names of `query` this index does not know, each with the error a search of it alone gives.
    func unknownNames(in query: SearchQuery) -> [QueryName: QueryError] {
        var unknown: [QueryName: QueryError] = [:]
        if let region = query.region, regions.nodes(matching: region).isEmpty {
            unknown[QueryName(kind: .region, name: region)] = .unknownRegion(region, suggestions: regions.suggestions(for: region))
        }
        if let roomType = query.roomType, !roomTypeNames.contains(roomType), !ListingIndex.standardRoomTypes.contains(roomType) {
            unknown[QueryName(kind: .roomType, name: roomType)] = .unknownRoomType(roomType, known: knownRoomTypes)
        }
        for name in query.propertyTypes where propertyTypes.code(of: name) == nil {
            unknown[QueryName(kind: .propertyType, name: name)] = .unknownPropertyType(name, suggestions: propertyTypes.suggestions(for: name))
        }
        for name in query.amenities where amenities.code(of: name) == nil {
            unknown[QueryName(kind: .amenity, name: name)] = .unknownAmenity(name, suggestions: amenities.suggestions(for: name))
        }
        return unknown
    }
}

extension ListingIndex {
    /// The rows of `rows` whose bit is set in `visibleRows`.
    static func visibleRowCount(in rows: Range<Int>, visibleRows: UnsafePointer<UInt64>) -> Int {
        guard !rows.isEmpty else { return 0 }
        let first = rows.lowerBound >> 6, last = (rows.upperBound - 1) >> 6
        var count = 0
        for word in first...last {
            var bits = visibleRows[word]
            if word == first { bits &= ~0 << UInt64(rows.lowerBound & 63) }
            if word == last, rows.upperBound & 63 != 0 { bits &= ~(~0 << UInt64(rows.upperBound & 63)) }
            count += bits.nonzeroBitCount
        }
        return count
    }

    /// ``unknownNames(in:)`` of this frozen index under a live index's hidden rows: a name whose every
    /// listing is hidden is unknown too.
    func unknownNames(in query: SearchQuery, live: LiveParts) -> [QueryName: QueryError] {
        var unknown = unknownNames(in: query)
        guard let names = live.frozenNames, let visibleRows = live.visibleRows else { return unknown }
        if let region = query.region, unknown[QueryName(kind: .region, name: region)] == nil,
           !regions.nodes(matching: region).contains(where: { ListingIndex.visibleRowCount(in: regions.nodes[$0].rows, visibleRows: visibleRows) > 0 }) {
            unknown[QueryName(kind: .region, name: region)] = .unknownRegion(region, suggestions: [])
        }
        if let roomType = query.roomType, !ListingIndex.standardRoomTypes.contains(roomType),
           let code = roomTypeNames.firstIndex(of: roomType), !names.showsRoomType(code) {
            unknown[QueryName(kind: .roomType, name: roomType)] = .unknownRoomType(roomType, known: [])
        }
        for name in query.propertyTypes {
            if let code = propertyTypes.code(of: name), !names.showsPropertyType(code) {
                unknown[QueryName(kind: .propertyType, name: name)] = .unknownPropertyType(name, suggestions: [])
            }
        }
        for name in query.amenities {
            if let code = amenities.code(of: name), !names.showsAmenity(code) {
                unknown[QueryName(kind: .amenity, name: name)] = .unknownAmenity(name, suggestions: [])
            }
        }
        return unknown
    }

    /// The error for `name`, which neither this frozen index's visible rows nor the live overlay know:
    /// its suggestions (or known room types) are the names that still have listings in either.
    func unknownNameError(_ name: QueryName, live: LiveParts) -> QueryError {
        let overlay = live.overlay
        let names = live.frozenNames
        let visibleRows = live.visibleRows
        func frozenShows(node: Int) -> Bool {
            guard let visibleRows else { return true }
            return ListingIndex.visibleRowCount(in: regions.nodes[node].rows, visibleRows: visibleRows) > 0
        }
        /// Names of `frozen` still shown, then those only `other` has (compared folded).
        func union(_ frozen: NameTable, shows: (Int) -> Bool, _ other: NameTable?) -> [String] {
            var result: [String] = []
            var seen = Set<String>()
            for (code, text) in frozen.names.enumerated() where shows(code) && seen.insert(TextFolding.fold(text)).inserted {
                result.append(text)
            }
            for text in other?.names ?? [] where seen.insert(TextFolding.fold(text)).inserted { result.append(text) }
            return result
        }
        switch name.kind {
        case .region:
            var candidates = regions.nodes.indices.filter(frozenShows).map { (regions.nodes[$0].name, regions.nodes[$0].foldedName) }
            candidates += overlay?.regions.nodes.map { ($0.name, $0.foldedName) } ?? []
            return .unknownRegion(name.name, suggestions: RegionTree.suggestions(for: name.name, among: candidates))
        case .roomType:
            var known = Set(ListingIndex.standardRoomTypes).union(overlay?.roomTypeNames ?? [])
            for (code, text) in roomTypeNames.enumerated() where names?.showsRoomType(code) ?? true { known.insert(text) }
            return .unknownRoomType(name.name, known: known.sorted())
        case .propertyType:
            let candidates = union(propertyTypes, shows: { names?.showsPropertyType($0) ?? true }, overlay?.propertyTypes)
            return .unknownPropertyType(name.name, suggestions: NameTable.suggestions(for: name.name, among: candidates))
        case .amenity:
            let candidates = union(amenities, shows: { names?.showsAmenity($0) ?? true }, overlay?.amenities)
            return .unknownAmenity(name.name, suggestions: NameTable.suggestions(for: name.name, among: candidates))
        }
    }
}

extension SearchQuery {
    /// The names this query uses, in the order a frozen index checks them (so that of several unknown
    /// names, the same one is reported): region, room type, property types, amenities.
    var names: [QueryName] {
        var names: [QueryName] = []
        if let region { names.append(QueryName(kind: .region, name: region)) }
        if let roomType { names.append(QueryName(kind: .roomType, name: roomType)) }
        names += propertyTypes.map { QueryName(kind: .propertyType, name: $0) }
        names += amenities.map { QueryName(kind: .amenity, name: $0) }
        return names
    }

    /// The query for an index that does not know the names in `unknown`: its property types (any of them
    /// will do) without those; nil when it can match nothing there (a region, room type or amenity it
    /// does not know, or none of the property types).
    func narrowed(toNamesKnownBy unknown: [QueryName: QueryError]) -> SearchQuery? {
        guard !unknown.isEmpty else { return self }
        guard !unknown.keys.contains(where: { $0.kind != .propertyType }) else { return nil }
        var query = self
        query.propertyTypes = propertyTypes.filter { unknown[QueryName(kind: .propertyType, name: $0)] == nil }
        return query.propertyTypes.isEmpty ? nil : query
    }
}

extension FacetCounts {
    /// The entries of two indexes' counts as one: counts of equal values added (names compared folded,
    /// as filters compare them; the first index's spelling kept).
    static func merging(_ first: [Entry], _ second: [Entry]) -> [Entry] {
        var merged = first
        var positions: [String: Int] = [:]
        func key(_ value: Value) -> String {
            switch value {
            case .text(let name): return "t" + TextFolding.fold(name)
            case .number(let number): return "n\(number)"
            case .flag(let flag): return flag ? "y" : "n"
            }
        }
        for (position, entry) in merged.enumerated() where positions[key(entry.value)] == nil { positions[key(entry.value)] = position }
        for entry in second {
            if let position = positions[key(entry.value)] {
                merged[position].count += entry.count
            } else {
                positions[key(entry.value)] = merged.count
                merged.append(entry)
            }
        }
        return merged
    }
}

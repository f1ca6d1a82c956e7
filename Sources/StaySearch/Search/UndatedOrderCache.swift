import Dispatch

/// The ``UndatedOrder`` an index last worked out, the ``UndatedPopulation``s last asked of it (of every row
/// or of a region), every row by quality (``UndatedQualityOrder``) and regions' rows by quality
/// (``RegionQualityOrder``), shared by every copy of the index and every thread searching it.
///
/// Working out the order and a population takes about twenty scans' time (a sort of every priced row, then
/// its rows gathered in that order): worth it for a service that answers the same kind of search again and
/// again, not for one search. So a search finds a population here only when it was made ahead
/// (``ListingIndex/prepareUndatedOrder(for:)``, in the caller's time) or made in the background once it was
/// worth it: when the same region, guests, room type and day were asked for before, or when a population of
/// those was held on an earlier day (a new day's prices need a new order; a server that kept
/// one yesterday will be asked for it again today). Until it is made, searches are scanned: no search waits
/// for a sort of every row, and none waits for another thread's.
final class UndatedOrderCache: @unchecked Sendable {
    /// How much is kept (the most recently asked for first), in rows of the index: a population holds
    /// 8 bytes a row it has, a region's rows by quality 12 (counted as one and a half). A traveller's guests
    /// and room type take few values (a population of one or two adults has about every row); regions are
    /// many, each a small share of the rows.
    static let populationLimit = 8
    /// The most populations kept, however small.
    static let populationCountLimit = 64

    private let lock = ReadWriteLock()
    private var order: UndatedOrder?
    /// Most recently asked for last.
    private var populations: [UndatedPopulation] = []
    /// The keys (``UndatedPopulation/key``) of populations asked for once and not made.
    private var askedOnce: Set<[Int]> = []
    /// The keys of populations held for an earlier day than the order's, without their day offset.
    private var heldBefore: Set<[Int]> = []
    /// The keys of populations being made in the background.
    private var building: Set<[Int]> = []
    /// Every row by quality, with the prices of one day.
    private var qualityOrder: UndatedQualityOrder?
    /// The day offset of a quality order being made in the background.
    private var buildingQualityOrder: Int?
    /// The rows of held regions' populations by quality.
    private var regionQualityOrders: [RegionQualityOrder] = []
    /// The population keys of those being made in the background.
    private var buildingRegionQualityOrders: Set<[Int]> = []
    /// Where populations and quality orders are made in the background, one at a time.
    private let builder = DispatchQueue(label: "staysearch.undated-order", qos: .utility)

    /// Every row by quality with the prices of day offset `dayOffset`: from the cache; or, when `ahead`,
    /// made by `make` now and kept (replacing another day's); otherwise nil, and `make` runs in the
    /// background.
    func qualityOrder(dayOffset: Int, ahead: Bool, make: @escaping @Sendable () -> UndatedQualityOrder) -> UndatedQualityOrder? {
        if let order = lock.reading({ qualityOrder }), order.dayOffset == dayOffset { return order }
        if ahead {
            let order = make()
            return lock.writing {
                if let qualityOrder, qualityOrder.dayOffset == dayOffset { return qualityOrder }
                qualityOrder = order
                return order
            }
        }
        lock.writing {
            guard buildingQualityOrder == nil, qualityOrder?.dayOffset != dayOffset else { return }
            buildingQualityOrder = dayOffset
            builder.async { [self] in
                let order = make()
                lock.writing {
                    if qualityOrder?.dayOffset != dayOffset { qualityOrder = order }
                    buildingQualityOrder = nil
                }
            }
        }
        return nil
    }

    /// The rows of the region population `key` by quality: from the cache; or, when `ahead`, made by `make`
    /// now and kept (while the population is); otherwise nil, and `make` runs in the background.
    /// - Parameter rowCount: the index's rows (what ``populationLimit`` counts in).
    func regionQualityOrder(key: [Int], rowCount: Int, ahead: Bool, make: @escaping @Sendable () -> RegionQualityOrder) -> RegionQualityOrder? {
        if let order = lock.reading({ regionQualityOrders.first { $0.key == key } }) { return order }
        if ahead {
            let order = make()
            return lock.writing {
                if let found = regionQualityOrders.first(where: { $0.key == key }) { return found }
                keep(order, rowCount: rowCount)
                return order
            }
        }
        lock.writing {
            guard !buildingRegionQualityOrders.contains(key), !regionQualityOrders.contains(where: { $0.key == key }) else { return }
            buildingRegionQualityOrders.insert(key)
            builder.async { [self] in
                let order = make()
                lock.writing {
                    buildingRegionQualityOrders.remove(key)
                    if !regionQualityOrders.contains(where: { $0.key == key }) { keep(order, rowCount: rowCount) }
                }
            }
        }
        return nil
    }

    /// Keeps `order` if its population is held (under the lock).
    private func keep(_ order: RegionQualityOrder, rowCount: Int) {
        guard populations.contains(where: { $0.key == order.key }) else { return }
        regionQualityOrders.append(order)
        evict(rowCount: rowCount)
    }

    /// Lets the least recently asked for populations go (with their regions' rows by quality) while more than
    /// ``populationLimit`` rows' worth or ``populationCountLimit`` populations are held, but the latest.
    private func evict(rowCount: Int) {
        func weight(_ population: UndatedPopulation) -> Int {
            population.rows.count + (regionQualityOrders.first { $0.key == population.key }.map { $0.rows.count * 3 / 2 } ?? 0)
        }
        var total = populations.reduce(0) { $0 + weight($1) }
        while populations.count > 1,
              total > UndatedOrderCache.populationLimit * rowCount || populations.count > UndatedOrderCache.populationCountLimit {
            total -= weight(populations[0])
            let key = populations.removeFirst().key
            regionQualityOrders.removeAll { $0.key == key }
        }
    }

    /// The population of `guests`, `roomCode` and the rows of `ranges` on the prices of day offset
    /// `dayOffset`: from the cache; or, when `ahead`, made now by `make` from the order (itself from the
    /// cache or made by `makeOrder`) and kept; otherwise nil — and when it is worth making (asked for before,
    /// or held on an earlier day), it is made in the background for the next search.
    /// - Parameter rowCount: the index's rows (what ``populationLimit`` counts in).
    func population(dayOffset: Int, guests: Int, roomCode: Int, ranges: [Range<Int>], rowCount: Int, ahead: Bool,
                    makeOrder: @escaping @Sendable () -> UndatedOrder,
                    make: @escaping @Sendable (UndatedOrder) -> UndatedPopulation) -> UndatedPopulation? {
        let key = UndatedPopulation.key(dayOffset: dayOffset, guests: guests, roomCode: roomCode, ranges: ranges)
        if let found = held(key) { return found }
        if ahead {
            let order = lock.reading { self.order?.dayOffset == dayOffset ? self.order : nil } ?? makeOrder()
            return install(make(order), order: order, key: key, rowCount: rowCount)
        }
        lock.writing {
            guard !building.contains(key), !populations.contains(where: { $0.key == key }) else { return }
            let heldEarlier = heldBefore.contains(Array(key.dropFirst()))
                || populations.contains { $0.dayOffset < dayOffset && $0.key.dropFirst() == key.dropFirst() }
            let worthIt = askedOnce.remove(key) != nil || heldEarlier
            guard worthIt else {
                if askedOnce.count >= 64 { askedOnce.removeAll() }
                askedOnce.insert(key)
                return
            }
            building.insert(key)
            builder.async { [self] in
                let order = lock.reading { self.order?.dayOffset == dayOffset ? self.order : nil } ?? makeOrder()
                _ = install(make(order), order: order, key: key, rowCount: rowCount)
            }
        }
        return nil
    }

    /// The population `key` describes, if held; it becomes the most recently asked for.
    private func held(_ key: [Int]) -> UndatedPopulation? {
        let (found, isLatest) = lock.reading { () -> (UndatedPopulation?, Bool) in
            guard let place = populations.lastIndex(where: { $0.key == key }) else { return (nil, false) }
            return (populations[place], place == populations.count - 1)
        }
        if found != nil, !isLatest {
            lock.writing {
                if let place = populations.lastIndex(where: { $0.key == key }) { populations.append(populations.remove(at: place)) }
            }
        }
        return found
    }

    /// Keeps `population`, made from `order`, unless one for `key` came first, and lets the least recently
    /// asked for go beyond ``populationLimit`` populations of `rowCount` rows; a new day's order replaces the
    /// old one and its populations (remembered in ``heldBefore``).
    private func install(_ population: UndatedPopulation, order newOrder: UndatedOrder, key: [Int], rowCount: Int) -> UndatedPopulation {
        lock.writing {
            building.remove(key)
            if let found = populations.last(where: { $0.key == key }) { return found }
            if order?.dayOffset != newOrder.dayOffset {
                if let order, order.dayOffset < newOrder.dayOffset {
                    heldBefore = Set(populations.map { Array($0.key.dropFirst()) })
                }
                order = newOrder
                populations.removeAll()
            }
            populations.append(population)
            evict(rowCount: rowCount)
            return population
        }
    }

    /// Whether the population of `guests`, `roomCode` and `ranges` on the prices of day offset `dayOffset` is held.
    func holds(dayOffset: Int, guests: Int, roomCode: Int, ranges: [Range<Int>]) -> Bool {
        let key = UndatedPopulation.key(dayOffset: dayOffset, guests: guests, roomCode: roomCode, ranges: ranges)
        return lock.reading { populations.contains { $0.key == key } }
    }

    /// Whether the rows of the region population `key` by quality are held.
    func holdsRegionQualityOrder(key: [Int]) -> Bool {
        lock.reading { regionQualityOrders.contains { $0.key == key } }
    }

    /// Whether every row by quality with the prices of day offset `dayOffset` is held.
    func holdsQualityOrder(dayOffset: Int) -> Bool {
        lock.reading { qualityOrder?.dayOffset == dayOffset }
    }

    /// Returns once what was being made in the background is kept (for tests and benchmarks that must
    /// know which way a search will be answered).
    func waitForBackgroundWork() {
        builder.sync {}
    }
}

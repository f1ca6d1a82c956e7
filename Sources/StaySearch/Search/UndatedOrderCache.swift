import Dispatch

/// The ``UndatedOrder`` an index last worked out, the few ``UndatedPopulation``s last asked of it and the
/// ``UndatedQualityOrder``, shared by every copy of the index and every thread searching it.
///
/// Working out the order and a population takes about twenty scans' time (a sort of every priced row, then
/// its rows gathered in that order): worth it for a service that answers the same kind of search again and
/// again, not for one search. So a search finds a population here only when it was made ahead
/// (``ListingIndex/prepareUndatedOrder(for:)``, in the caller's time) or made in the background once it was
/// worth it: when the same guests, room type and day were asked for before, or when a population of those
/// guests and room type was held on an earlier day (a new day's prices need a new order; a server that kept
/// one yesterday will be asked for it again today). Until it is made, searches are scanned: no search waits
/// for a sort of every row, and none waits for another thread's.
package final class UndatedOrderCache: @unchecked Sendable {
    /// How many populations are kept (the most recently asked for): a traveller's guests and room type
    /// take few values, and each population holds 8 bytes a row.
    static let populationLimit = 4

    private let lock = ReadWriteLock()
    private var order: UndatedOrder?
    /// Most recently asked for last.
    private var populations: [UndatedPopulation] = []
    /// The day offset, guests and room code of populations asked for once and not made.
    private var askedOnce: Set<[Int]> = []
    /// The guests and room codes of populations held for an earlier day than the order's.
    private var heldBefore: Set<[Int]> = []
    /// The day offset, guests and room code of populations being made in the background.
    private var building: Set<[Int]> = []
    /// Every row by quality, with the prices of one day.
    private var qualityOrder: UndatedQualityOrder?
    /// The day offset of a quality order being made in the background.
    private var buildingQualityOrder: Int?
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

    /// The population of `guests` and `roomCode` on the prices of day offset `dayOffset`: from the cache;
    /// or, when `ahead`, made now by `make` from the order (itself from the cache or made by `makeOrder`) and
    /// kept; otherwise nil — and when it is worth making (asked for before, or held on an earlier day), it
    /// is made in the background for the next search.
    func population(dayOffset: Int, guests: Int, roomCode: Int, ahead: Bool,
                    makeOrder: @escaping @Sendable () -> UndatedOrder,
                    make: @escaping @Sendable (UndatedOrder) -> UndatedPopulation) -> UndatedPopulation? {
        if let found = held(dayOffset: dayOffset, guests: guests, roomCode: roomCode) { return found }
        let key = [dayOffset, guests, roomCode]
        if ahead {
            let order = lock.reading { self.order?.dayOffset == dayOffset ? self.order : nil } ?? makeOrder()
            return install(make(order), order: order, key: key)
        }
        lock.writing {
            guard !building.contains(key), !populations.contains(where: { $0.matches(key) }) else { return }
            let heldEarlier = heldBefore.contains([guests, roomCode])
                || populations.contains { $0.dayOffset < dayOffset && $0.guests == guests && $0.roomCode == roomCode }
            let worthIt = askedOnce.remove(key) != nil || heldEarlier
            guard worthIt else {
                if askedOnce.count >= 64 { askedOnce.removeAll() }
                askedOnce.insert(key)
                return
            }
            building.insert(key)
            builder.async { [self] in
                let order = lock.reading { self.order?.dayOffset == dayOffset ? self.order : nil } ?? makeOrder()
                _ = install(make(order), order: order, key: key)
            }
        }
        return nil
    }

    /// The population `key` describes, if held; it becomes the most recently asked for.
    private func held(dayOffset: Int, guests: Int, roomCode: Int) -> UndatedPopulation? {
        let key = [dayOffset, guests, roomCode]
        let (found, isLatest) = lock.reading { () -> (UndatedPopulation?, Bool) in
            guard let place = populations.lastIndex(where: { $0.matches(key) }) else { return (nil, false) }
            return (populations[place], place == populations.count - 1)
        }
        if found != nil, !isLatest {
            lock.writing {
                if let place = populations.lastIndex(where: { $0.matches(key) }) { populations.append(populations.remove(at: place)) }
            }
        }
        return found
    }

    /// Keeps `population`, made from `order`, unless one for `key` came first; a new day's order replaces
    /// the old one and its populations (remembered in ``heldBefore``).
    private func install(_ population: UndatedPopulation, order newOrder: UndatedOrder, key: [Int]) -> UndatedPopulation {
        lock.writing {
            building.remove(key)
            if let found = populations.last(where: { $0.matches(key) }) { return found }
            if order?.dayOffset != newOrder.dayOffset {
                if let order, order.dayOffset < newOrder.dayOffset {
                    heldBefore = Set(populations.map { [$0.guests, $0.roomCode] })
                }
                order = newOrder
                populations.removeAll()
            }
            populations.append(population)
            if populations.count > UndatedOrderCache.populationLimit { populations.removeFirst() }
            return population
        }
    }

    /// Whether the population of `guests` and `roomCode` on the prices of day offset `dayOffset` is held.
    package func holds(dayOffset: Int, guests: Int, roomCode: Int) -> Bool {
        lock.reading { populations.contains { $0.matches([dayOffset, guests, roomCode]) } }
    }

    /// Whether every row by quality with the prices of day offset `dayOffset` is held.
    package func holdsQualityOrder(dayOffset: Int) -> Bool {
        lock.reading { qualityOrder?.dayOffset == dayOffset }
    }

    /// Returns once what was being made in the background is kept (for tests and benchmarks that must
    /// know which way a search will be answered).
    package func waitForBackgroundWork() {
        builder.sync {}
    }
}

private extension UndatedPopulation {
    /// Whether it is the population of `key`: a day offset, guests and a room code.
    func matches(_ key: [Int]) -> Bool {
        dayOffset == key[0] && guests == key[1] && roomCode == key[2]
    }
}

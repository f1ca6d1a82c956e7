/// The ``UndatedOrder`` an index last worked out, and the few ``UndatedPopulation``s last asked of it,
/// shared by every copy of the index and every thread searching it.
///
/// Working out the order and a population takes about twenty scans' time (a sort of every priced row, then
/// its rows gathered in that order): worth it for a service that answers the same kind of search again and
/// again, not for one search. So a search finds a population here only when it was made ahead
/// (``ListingIndex/prepareUndatedOrder(for:)``) or when the same guests, room type and day were asked for
/// before; the first time, it is scanned.
final class UndatedOrderCache: @unchecked Sendable {
    /// How many populations are kept (the most recently asked for): a traveller's guests and room type
    /// take few values, and each population holds 8 bytes a row.
    static let populationLimit = 4

    private let lock = ReadWriteLock()
    private var order: UndatedOrder?
    /// Most recently asked for last.
    private var populations: [UndatedPopulation] = []
    /// The day offset, guests and room code of populations asked for once and not made.
    private var askedOnce: Set<[Int]> = []
    /// Every row by quality, with the prices of one day.
    private var qualityOrder: UndatedQualityOrder?

    /// Every row by quality with the prices of day offset `dayOffset`: from the cache, or made by `make` and
    /// kept (replacing another day's).
    func qualityOrder(dayOffset: Int, make: () -> UndatedQualityOrder) -> UndatedQualityOrder {
        if let order = lock.reading({ qualityOrder }), order.dayOffset == dayOffset { return order }
        return lock.writing {
            if let qualityOrder, qualityOrder.dayOffset == dayOffset { return qualityOrder }
            let order = make()
            qualityOrder = order
            return order
        }
    }

    /// The population of `guests` and `roomCode` on the prices of day offset `dayOffset`: from the cache, or
    /// made by `make` from the order (itself from the cache or made by `makeOrder`) and kept — when
    /// `ahead`, or when it was asked for before; otherwise nil, and the next time it is made.
    func population(dayOffset: Int, guests: Int, roomCode: Int, ahead: Bool, makeOrder: () -> UndatedOrder,
                    make: (UndatedOrder) -> UndatedPopulation) -> UndatedPopulation? {
        func matches(_ population: UndatedPopulation) -> Bool {
            population.dayOffset == dayOffset && population.guests == guests && population.roomCode == roomCode
        }
        let (found, isLatest) = lock.reading { () -> (UndatedPopulation?, Bool) in
            guard let place = populations.lastIndex(where: matches) else { return (nil, false) }
            return (populations[place], place == populations.count - 1)
        }
        if let found {
            if !isLatest {
                lock.writing {
                    if let place = populations.lastIndex(where: matches) { populations.append(populations.remove(at: place)) }
                }
            }
            return found
        }
        return lock.writing {
            if let found = populations.last(where: matches) { return found }
            let key = [dayOffset, guests, roomCode]
            guard ahead || askedOnce.remove(key) != nil else {
                if askedOnce.count >= 64 { askedOnce.removeAll() }
                askedOnce.insert(key)
                return nil
            }
            if order?.dayOffset != dayOffset {
                order = makeOrder()
                populations.removeAll()
            }
            let population = make(order!)
            populations.append(population)
            if populations.count > UndatedOrderCache.populationLimit { populations.removeFirst() }
            return population
        }
    }

    /// Whether the population of `guests` and `roomCode` on the prices of day offset `dayOffset` is held.
    func holds(dayOffset: Int, guests: Int, roomCode: Int) -> Bool {
        lock.reading { populations.contains { $0.dayOffset == dayOffset && $0.guests == guests && $0.roomCode == roomCode } }
    }
}

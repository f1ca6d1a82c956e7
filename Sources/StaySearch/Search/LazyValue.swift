/// A value an index works out the first time a search needs it, then shares with every copy of the index
/// and every thread searching it.
final class LazyValue<Value: Sendable>: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var value: Value?

    /// The value, made by `make` the first time (by one thread; the others wait for it).
    func get(_ make: () -> Value) -> Value {
        if let found = lock.reading({ value }) { return found }
        return lock.writing {
            if let found = value { return found }
            let made = make()
            value = made
            return made
        }
    }
}

/// What each part of a pass on several threads found: each slot written by one thread, read after all have
/// finished.
final class PartResults<Value>: @unchecked Sendable {
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Keeps part `part`'s result (from that part's thread only).
    func store(_ value: Value, at part: Int) {
        slots.withUnsafeMutableBufferPointer { $0[part] = value }
    }

    /// Every part's result, in part order (once every part has stored one).
    var values: [Value] { slots.map { $0! } }
}

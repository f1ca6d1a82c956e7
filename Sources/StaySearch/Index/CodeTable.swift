/// Distinct values numbered in the order first seen: a listing keeps a value's code, not the value.
struct CodeTable<Value: Hashable> {
    /// The values by code.
    private(set) var values: [Value] = []
    private var codeOfValue: [Value: UInt32] = [:]

    /// The code of `value`, numbered next when it is new.
    mutating func code(of value: Value) -> UInt32 {
        if let code = codeOfValue[value] { return code }
        let code = UInt32(values.count)
        values.append(value)
        codeOfValue[value] = code
        return code
    }
}

/// One key of a chart's size: its name (the same as a key, a URL key and a flag), bounds and help text.
package struct ChartParameter: Sendable {
    package let key: String
    package let range: ClosedRange<Int>
    package let help: String
    package let valueName: String

    package init(_ key: String, _ range: ClosedRange<Int>, _ help: String, valueName: String) {
        self.key = key
        self.range = range
        self.help = help
        self.valueName = valueName
    }
}

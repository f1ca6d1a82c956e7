import ArgumentParser
import StaySearchAPI

/// Options that shape a PNG chart: the chart keys of ``QuerySchema``, checked by ``ChartSize``.
struct ChartOptions: ParsableArguments {
    @Option(help: .chart("width")) var width: Int = ChartSize.histogram.width
    @Option(help: .chart("height")) var height: Int = ChartSize.histogram.height
    @Option(help: .chart("scale")) var scale: Int = 1

    func validate() throws {
        do { try ChartSize(width: width, height: height, scale: scale).validate() } catch { throw ValidationError(error.message) }
    }
}

extension ArgumentHelp {
    /// The help of the schema's chart key `key`.
    static func chart(_ key: String) -> ArgumentHelp {
        let parameter = QuerySchema.chart.first { $0.key == key }!
        return ArgumentHelp("\(parameter.help) \(parameter.range.lowerBound) to \(parameter.range.upperBound).", valueName: parameter.valueName)
    }
}

import StaySearchAPI
import ArgumentParser
import StaySearch

/// `staysearch map`: a search's results on a map PNG.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw a search's results on a map: the page as price pins, every other match as a dot.",
        discussion: """
            The top result's pin is dark; a pin whose label would cover a better-ranked one is drawn as a \
            ringed dot. A --bbox or --near/--radius-km area is outlined; a scale bar gives kilometres.

            Examples:
              staysearch map --region antwerp --checkin 2024-07-12 --checkout 2024-07-15 --adults 2 --output antwerp.png
              staysearch map --near 51.2172,4.4212 --radius-km 1 --limit 10 --output station.png --scale 2
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var query: QueryOptions
    @OptionGroup var platform: PlatformOptions
    @OptionGroup var size: MapSizeOptions
    @OptionGroup var display: DisplayOptions

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "FILE"))
    var output: String

    func run() throws {
        let index = try data.loadIndex()
        var query = try data.clock.clock(for: index).prepared(self.query.query)
        query.serviceFeeBasisPoints = try platform.fees(for: index).serviceFeeBasisPoints
        let result = try index.search(query, threads: threads.count)
        try MapOutput.writePNG(query: query, result: result, index: index, to: output, width: size.mapWidth, height: size.mapHeight,
                               scale: size.mapScale, threads: threads.count, style: try display.style)
        Standard.write("wrote \(output) (\(size.mapWidth * size.mapScale)×\(size.mapHeight * size.mapScale)): "
            + "\(result.matches.count) pins, \(ResultFormatting.grouped(result.total)) listings match\n")
    }
}

/// The map's size.
struct MapSizeOptions: ParsableArguments {
    @Option(name: .customLong("map-width"), help: ArgumentHelp("Map width in pixels (before --map-scale).", valueName: "PIXELS"))
    var mapWidth: Int = 800

    @Option(name: .customLong("map-height"), help: ArgumentHelp("Map height in pixels (before --map-scale).", valueName: "PIXELS"))
    var mapHeight: Int = 600

    @Option(name: .customLong("map-scale"), help: "1 for normal screens, 2 for high-density ones.")
    var mapScale: Int = 1

    func validate() throws {
        guard (200...4_000).contains(mapWidth) else { throw ValidationError("map width must be from 200 to 4000 (got \(mapWidth))") }
        guard (150...3_000).contains(mapHeight) else { throw ValidationError("map height must be from 150 to 3000 (got \(mapHeight))") }
        guard (1...4).contains(mapScale) else { throw ValidationError("map scale must be from 1 to 4 (got \(mapScale))") }
    }
}

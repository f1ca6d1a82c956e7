import Foundation
import PriceGraph
import StaySearchTestSupport
import Testing

@Suite(.serialized) struct HistogramCommandTests {
    private let stay = ["--region", "Centraal Station", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2"]

    @Test func writesAPNGAtTheAskedSize() throws {
        let path = Scratch.path("histogram.png")
        let output = try CommandRunner.run(["histogram"] + stay + ["--max-price", "150", "--png", path, "--scale", "2", "--width", "640"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "wrote \(path) (1280×720): Prices: 69 listings, $44 to $1,640 (15 above), average $1,258.13 a night\n")
        let image = try GDImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(image.width == 1_280 && image.height == 720)
    }

    @Test func searchWritesTheSameChart() throws {
        let first = Scratch.path("first.png")
        let second = Scratch.path("second.png")
        #expect(try CommandRunner.run(["histogram"] + stay + ["--png", first]).status == 0)
        let search = try CommandRunner.run(["search"] + stay + ["--png", second, "--limit", "2"])
        #expect(search.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    }

    @Test func printsBarsInTheTerminalFittedTo80Columns() throws {
        let output = try CommandRunner.run(["histogram"] + stay + ["--min-price", "50", "--max-price", "150"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 9)          // 6 rows of bars, the range marker, the price labels, the summary
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[6].contains("━") && lines[6].contains("─"))
        #expect(lines[7].hasPrefix("$44 ") && lines[7].hasSuffix("$1,640 | 15 above"))
        #expect(lines[8] == "Prices: 69 listings, $44 to $1,640 (15 above), average $1,258.13 a night")
        let table = try CommandRunner.run(["search"] + stay + ["--limit", "1"])
        #expect(table.stdout.contains("━"))
    }

    @Test(arguments: [(["--width", "50"], "width must be from 200 to 4000 (got 50)"),
                      (["--scale", "9"], "scale must be from 1 to 4 (got 9)"),
                      (["--png", "/nonexistent-folder/chart.png"], "/nonexistent-folder/chart.png: cannot write: No such file or directory")]
                     as [([String], String)])
    func rejectsBadChartOptions(arguments: [String], message: String) throws {
        let output = try CommandRunner.run(["histogram"] + arguments)
        #expect(output.status != 0)
        #expect(output.stderr.contains(message) && output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
    }
}

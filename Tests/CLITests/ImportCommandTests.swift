import Foundation
import StaySearch
import StaySearchTestSupport
import Testing

@Suite(.serialized) struct ImportCommandTests {
    private func temporaryDirectory() throws -> String {
        Scratch.directory("cli")
    }

    @Test func importedIndexAnswersLikeTheCSVFiles() throws {
        let directory = try temporaryDirectory()
        let index = directory + "/antwerp.ssx"
        let shipped = CommandRunner.packageRoot.appendingPathComponent("Data/antwerp").path
        let imported = try CommandRunner.run(["import", "Antwerp=\(shipped)", "--output", index])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 2,870 listings and 1,047,550 calendar rows into \(index)"))
        #expect(imported.stdout.contains("records: 1,050,420 read, 1,050,420 loaded, 0 rejected"))
        for arguments in [["--region", "Centraal Station", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2"],
                          ["--region", "zuid", "--sort", "rating", "--max-price", "150"]] {
            let fromIndex = try CommandRunner.run(["search", "--index", index, "--format", "json"] + arguments)
            let fromFiles = try CommandRunner.run(["search", "--format", "json"] + arguments)
            #expect(fromIndex.status == 0 && !fromIndex.stdout.isEmpty)
            #expect(fromIndex.stdout == fromFiles.stdout)
        }
        let regions = try CommandRunner.run(["regions", "--index", index, "--prefix", "centraal"])
        #expect(regions.stdout.hasPrefix("Antwerp / Centraal Station"))
        let batch = try CommandRunner.run(["batch", "--index", index, "--queries", "-"], input: #"{"region": "Zuid"}"# + "\n")
        #expect(batch.stdout.contains("\"total\":"))
    }

    @Test func badRecordsAreSummarisedAndStrictStops() throws {
        let directory = try temporaryDirectory()
        let folder = directory + "/town"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "id,name,neighbourhood_cleansed,room_type,accommodates,price\n1,A,Zuid,Private room,2,$70.00\n2,B,Zuid,Private room,2,oops\n"
            .write(toFile: folder + "/listings.csv", atomically: true, encoding: .utf8)
        try "listing_id,date,available,price\n1,2024-07-01,t,$70.00\n1,2024-07-32,t,$70.00\n"
            .write(toFile: folder + "/calendar.csv", atomically: true, encoding: .utf8)
        let output = try CommandRunner.run(["import", folder, "--output", directory + "/town.ssx"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("records: 4 read, 2 loaded, 2 rejected"))
        #expect(output.stdout.contains("\(folder)/listings.csv:3: listing 2: price 'oops' is not an amount"))
        #expect(output.stdout.contains("\(folder)/calendar.csv:3: listing 1: date '2024-07-32' is not a date"))
        let strict = try CommandRunner.run(["import", folder, "--output", directory + "/strict.ssx", "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr == "staysearch: error: \(folder)/listings.csv:3: listing 2: price 'oops' is not an amount such as $70.00 (up to $1,000,000,000.00)\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/strict.ssx"))
    }

    @Test func aFailedImportKeepsTheEarlierIndex() throws {
        let directory = try temporaryDirectory()
        let index = directory + "/kept.ssx"
        #expect(try CommandRunner.run(["generate", "--listings", "50", "--output", index]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: index))
        let failed = try CommandRunner.run(["import", directory + "/missing", "--output", index])
        #expect(failed.status != 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["kept.ssx"])
    }

    @Test func damagedIndexesGiveOneLineAndANonZeroExit() throws {
        let directory = try temporaryDirectory()
        let good = directory + "/good.ssx"
        #expect(try CommandRunner.run(["generate", "--listings", "200", "--seed", "4", "--output", good]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        var newer = bytes
        newer[8] = 13
        let cases: [(String, Data, String)] = [
            ("truncated.ssx", bytes.prefix(bytes.count - 100), "the file is truncated"),
            ("flipped.ssx", flipped, "does not match (the file is damaged)"),
            ("newer.ssx", newer, "written in format 13 by a newer staysearch"),
            ("empty.ssx", Data(), "the file is empty (0 bytes)"),
            ("text.ssx", Data("hello\n".utf8), "signature"),
        ]
        for (name, data, message) in cases {
            let path = directory + "/" + name
            FileManager.default.createFile(atPath: path, contents: data)
            let output = try CommandRunner.run(["search", "--index", path])
            #expect(output.status == 65, "\(name)")
            #expect(output.stderr.hasPrefix("staysearch: error: \(path): not a usable index: ") && output.stderr.contains(message), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1)
        }
        let folder = try CommandRunner.run(["search", "--index", directory])
        #expect(folder.status == 65 && folder.stderr.contains("it is a directory, not an index file"))
        let both = try CommandRunner.run(["search", "--index", good, "--data", directory])
        #expect(both.status == 64 && both.stderr.contains("give --data or --index, not both"))
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anUnreadableIndexIsRefused() throws {
        // As root, permission bits do not apply: run the binary as nobody.
        let directory = try temporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        let path = directory + "/secret.ssx"
        #expect(try CommandRunner.run(["generate", "--listings", "20", "--output", path]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CommandRunner.binary.path, "search", "--index", path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 65)
        #expect(message == "staysearch: error: \(path): cannot open: Permission denied\n")
    }

    @Test func generateWritesIdenticalDataInBothFormats() throws {
        let directory = try temporaryDirectory()
        let index = directory + "/g.ssx"
        let generated = try CommandRunner.run(["generate", "--listings", "300", "--seed", "11", "--days", "60", "--output", index])
        #expect(generated.status == 0 && generated.stdout.hasPrefix("generated 300 listings with 60-day calendars into \(index)"))
        let csv = try CommandRunner.run(["generate", "--listings", "300", "--seed", "11", "--days", "60", "--format", "insideairbnb",
                                         "--output", directory + "/csv"])
        let dataArguments = csv.stdout.split(separator: "\n").dropFirst().map {
            String($0.trimmingCharacters(in: .whitespaces).dropFirst("--data '".count).dropLast())
        }
        #expect(dataArguments.count >= 3)
        let reimported = directory + "/re.ssx"
        let imported = try CommandRunner.run(["import"] + dataArguments + ["--output", reimported])
        #expect(imported.status == 0 && imported.stdout.contains("records: ") && imported.stdout.contains(" 0 rejected"))
        let queries = [#"{"checkin": "2025-06-10", "checkout": "2025-06-13", "adults": 2, "limit": 50}"#,
                       #"{"region": "Zürich", "sort": "rating"}"#, #"{"region": "sao paulo/pinheiros", "max_price": 90}"#]
        let input = queries.joined(separator: "\n") + "\n"
        func answers(_ path: String) throws -> [String] {
            try CommandRunner.run(["batch", "--index", path, "--queries", "-"], input: input).stdout.split(separator: "\n")
                .map { $0.replacingOccurrences(of: #","took_us":\d+"#, with: "", options: .regularExpression) }
        }
        #expect(try answers(index) == answers(reimported))
        #expect(try answers(index).allSatisfy { !$0.contains("error") })
        // The same seed gives the same bytes.
        let again = directory + "/again.ssx"
        _ = try CommandRunner.run(["generate", "--listings", "300", "--seed", "11", "--days", "60", "--output", again])
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: index)))
    }

    /// `generate --fees` gives the same listings fees, the same as an index and as files (a `fees.csv` a city):
    /// dated answers change, undated ones do not.
    @Test func generateGivesFeesInBothFormats() throws {
        let directory = try temporaryDirectory()
        let plain = directory + "/plain.ssx", withFees = directory + "/fees.ssx"
        let common = ["generate", "--listings", "300", "--seed", "12", "--days", "60"]
        #expect(try CommandRunner.run(common + ["--output", plain]).status == 0)
        #expect(try CommandRunner.run(common + ["--fees", "--output", withFees]).status == 0)
        let csv = try CommandRunner.run(common + ["--fees", "--format", "insideairbnb", "--output", directory + "/csv"])
        let dataArguments = csv.stdout.split(separator: "\n").dropFirst().map {
            String($0.trimmingCharacters(in: .whitespaces).dropFirst("--data '".count).dropLast())
        }
        for argument in dataArguments {
            let folder = String(argument[argument.index(after: argument.firstIndex(of: "=")!)...])
            #expect(FileManager.default.fileExists(atPath: folder + "/fees.csv"), "\(folder)")
        }
        let reimported = directory + "/re.ssx"
        let imported = try CommandRunner.run(["import"] + dataArguments + ["--output", reimported])
        #expect(imported.status == 0 && imported.stdout.contains(" 0 rejected"), "\(imported.stdout)")
        let withFeesCount = imported.stdout.firstMatch(of: /fees: (\d+) listings have fees/).map { Int($0.1)! } ?? 0
        #expect((240...295).contains(withFeesCount), "\(imported.stdout)")
        let dated = [#"{"checkin": "2025-06-10", "checkout": "2025-06-17", "adults": 3, "limit": 50, "sort": "price"}"#,
                     #"{"region": "Zürich", "checkin": "2025-06-03", "checkout": "2025-06-05", "limit": 50}"#]
        let undated = [#"{"region": "Zürich", "sort": "rating"}"#, #"{"max_price": 90, "limit": 50}"#]
        func answers(_ path: String, _ queries: [String]) throws -> [String] {
            try CommandRunner.run(["batch", "--index", path, "--queries", "-"], input: queries.joined(separator: "\n") + "\n").stdout
                .split(separator: "\n").map { $0.replacingOccurrences(of: #","took_us":\d+"#, with: "", options: .regularExpression) }
        }
        #expect(try answers(withFees, dated + undated) == answers(reimported, dated + undated))
        #expect(try answers(withFees, undated) == answers(plain, undated))
        for (feeAnswer, plainAnswer) in zip(try answers(withFees, dated), try answers(plain, dated)) { #expect(feeAnswer != plainAnswer) }
    }

    /// `generate --gzip` writes the same files gzipped: they import into the same bytes as the plain ones
    /// (dynamic pricing, so that every night's price is written), and `--gzip` without Inside Airbnb
    /// files is refused.
    @Test func generateGzipWritesTheSameDataCompressed() throws {
        let directory = try temporaryDirectory()
        var indexes: [Data] = []
        for (folder, gzip) in [("plain", false), ("gz", true)] {
            let written = try CommandRunner.run(["generate", "--listings", "400", "--seed", "5", "--days", "90", "--pricing", "dynamic",
                                                 "--format", "insideairbnb", "--output", directory + "/" + folder] + (gzip ? ["--gzip"] : []))
            #expect(written.status == 0)
            let cities = try FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder).sorted()
            #expect(cities.count >= 3)
            for city in cities {
                let files = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(folder)/\(city)").sorted()
                #expect(files == (gzip ? ["calendar.csv.gz", "listings.csv.gz"] : ["calendar.csv", "listings.csv"]))
            }
            let output = "\(directory)/\(folder).ssx"
            let imported = try CommandRunner.run(["import"] + cities.map { "\($0)=\(directory)/\(folder)/\($0)" } + ["--output", output])
            #expect(imported.status == 0 && imported.stdout.contains("36,400 loaded, 0 rejected"), "\(imported.stdout)")
            indexes.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(indexes[0] == indexes[1])
        let refused = try CommandRunner.run(["generate", "--listings", "10", "--gzip", "--output", directory + "/x.ssx"])
        #expect(refused.status != 0 && refused.stderr.contains("--gzip writes Inside Airbnb files"))
    }
}

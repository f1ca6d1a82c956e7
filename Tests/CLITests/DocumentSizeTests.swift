import Foundation
import Testing

/// The repository's documents within the sizes `docs/sizes.tsv` sets, and each CHANGELOG entry a line or
/// three: what a reader needs stays findable.
@Suite struct DocumentSizeTests {
    /// The Markdown files a reader of the repository meets (build folders and virtual environments left out).
    static func documents() throws -> [String] {
        let root = CommandRunner.packageRoot.path
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            let first = path.split(separator: "/").first.map(String.init) ?? ""
            if first.hasPrefix(".") || path.contains("/.") || path.contains("/node_modules/") { continue }
            if path.hasSuffix(".md") { found.append(path) }
        }
        return found.sorted()
    }

    @Test func everyDocumentIsWithinItsSize() throws {
        let root = CommandRunner.packageRoot.path
        let table = try String(contentsOfFile: root + "/docs/sizes.tsv", encoding: .utf8)
        var limits: [String: Int] = [:]
        for line in table.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("path\t") {
            let fields = line.split(separator: "\t")
            try #require(fields.count == 2, "docs/sizes.tsv: '\(line)'")
            limits[String(fields[0])] = Int(fields[1])
        }
        let fallback = try #require(limits["*"], "docs/sizes.tsv names no default (*)")
        let documents = try Self.documents()
        #expect(documents.contains("docs/performance.md") && documents.contains("README.md"), "\(documents)")
        for path in documents {
            let bytes = try #require(try FileManager.default.attributesOfItem(atPath: root + "/" + path)[.size] as? Int)
            let limit = limits[path] ?? fallback
            #expect(bytes <= limit, "\(path) holds \(bytes) bytes, more than its \(limit) (docs/sizes.tsv)")
        }
        for path in limits.keys where path != "*" { #expect(documents.contains(path), "docs/sizes.tsv names \(path), which is not there") }
    }

    @Test func everyChangelogEntryIsALineOrThree() throws {
        let text = try String(contentsOfFile: CommandRunner.packageRoot.path + "/CHANGELOG.md", encoding: .utf8)
        var entry: String?, lines = 0
        func check() { if let entry { #expect(lines <= 3, "CHANGELOG.md: \(lines) lines: \(entry.prefix(80))") } }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("- ") {
                check()
                (entry, lines) = (String(line), 1)
            } else if line.hasPrefix("  "), entry != nil {
                lines += 1
            } else {
                check()
                entry = nil
            }
        }
        check()
    }
}

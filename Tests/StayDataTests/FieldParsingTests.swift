@testable import StayData
import Testing

@Suite struct FieldParsingTests {
    private func count(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { FieldParsing.count($0) }
    }

    /// Counts of up to nine digits take a path without clamping; longer ones clamp at Int32.max.
    @Test func countsParseAndClamp() {
        #expect(count("0") == 0)
        #expect(count("3") == 3)
        #expect(count("1125") == 1_125)
        #expect(count("999999999") == 999_999_999)
        #expect(count("2147483647") == Int32.max)
        #expect(count("99999999999999") == Int32.max)
        #expect(count("007") == 7)
        for bad in ["", "-1", "1.5", "12a", " 3", "1234567890x"] {
            #expect(count(bad) == nil, "\(bad)")
        }
    }
}

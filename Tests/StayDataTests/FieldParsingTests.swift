import StayData
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

    private func rating(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { FieldParsing.rating($0) }
    }

    /// Ratings from 0 to 5 are read as written; above 5 they are on the older files' 100-point scale and read
    /// divided by 20, rounded half up; above 100, or not a number, they are no rating.
    @Test func ratingsOnEitherScale() {
        #expect(rating("4.85") == 485)
        #expect(rating("5") == 500)
        #expect(rating("0") == 0)
        #expect(rating("94") == 470)
        #expect(rating("100") == 500)
        #expect(rating("20") == 100)
        #expect(rating("97.5") == 488)
        #expect(rating("5.01") == 25)
        for bad in ["", "100.01", "101", "4,5", "-3", "abc"] {
            #expect(rating(bad) == nil, "\(bad)")
        }
    }
}

import StaySearch
import StaySearchAPI
import Testing

/// The schema against itself: defaults, bounds and readers agree.
struct QuerySchemaTests {
    /// No keys give the engine's default query, and so does each default written out.
    @Test func defaultsAreTheQueryDefaults() throws {
        #expect(try QueryReader.query(items: []) == SearchQuery())
        for parameter in QuerySchema.search {
            guard let text = parameter.defaultText else { continue }
            #expect(try QueryReader.query(items: [(parameter.key, text)]) == SearchQuery(), "\(parameter.key)")
        }
    }
}

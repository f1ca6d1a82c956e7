import StaySearchDB
import StaySearch
import Testing

@Suite struct DatabaseAddressTests {
    @Test func urlsAreReadWithTheirParts() throws {
        let full = try DatabaseAddress("postgres://stay%40ops:p%3Ass@db.internal:6543/stays")
        #expect(full.user == "stay@ops" && full.password == "p:ss" && full.host == "db.internal" && full.port == 6543 && full.database == "stays")
        #expect(full.description == "postgres://stay@ops@db.internal:6543/stays")   // no password in messages
        let short = try DatabaseAddress("postgresql://staysearch@127.0.0.1/stays")
        #expect(short.port == 5432 && short.password == nil && short.tlsMode == .disable)
        let encrypted = try DatabaseAddress("postgres://u@db/stays?sslmode=require")
        #expect(encrypted.tlsMode == .require && encrypted.database == "stays" && encrypted.description == "postgres://u@db:5432/stays?sslmode=require")
        let verified = try DatabaseAddress("postgres://u@db/stays?sslmode=verify-full&sslrootcert=/etc/ca%20roots.pem")
        #expect(verified.tlsMode == .verifyFull && verified.rootCertificatePath == "/etc/ca roots.pem")
    }

    /// The URL a failover orchestrator hands out: several hosts tried in order, the one taking writes wanted.
    @Test func severalHostsAreReadInOrderWithTheirTarget() throws {
        let fleet = try DatabaseAddress("postgres://staysearch@10.0.0.11:5432,10.0.0.12,[::1]:6000/stays?target_session_attrs=read-write&sslmode=prefer")
        #expect(fleet.endpoints.map(\.description) == ["10.0.0.11:5432", "10.0.0.12:5432", "[::1]:6000"])
        #expect(fleet.endpoints[2].host == "::1" && fleet.target == .readWrite && fleet.tlsMode == .prefer)
        #expect(fleet.host == "10.0.0.11" && fleet.port == 5432)
        #expect(fleet.description == "postgres://staysearch@10.0.0.11:5432,10.0.0.12:5432,[::1]:6000/stays?sslmode=prefer&target_session_attrs=read-write")
        #expect(try DatabaseAddress("postgres://u@db/stays?target_session_attrs=any").target == .any)
    }

    @Test func badUrlsSayWhatIsWrong() {
        let cases = [
            ("mysql://a@b/c", "is not a PostgreSQL URL"),
            ("postgres://host/db", "names no user"),
            ("postgres://u@host", "names no database"),
            ("postgres://u@host:99999/db", "the port must be a number"),
            ("postgres://u@host/db?sslmode=verify-ca", "sslmode must be disable, prefer, require or verify-full"),
            ("postgres://u@host/db?connect_timeout=3", "the option 'connect_timeout=3' is not taken"),
            ("postgres://u@host/db?target_session_attrs=standby", "target_session_attrs must be any or read-write"),
            ("postgres://u@a:5432,,b/db", "needs a user, a host and a database"),
            ("postgres://u@a:5432,b:0/db", "the port must be a number"),
            ("postgres://u@host/db?sslmode=require&sslrootcert=ca.pem", "sslrootcert needs sslmode=verify-full"),
            ("postgres://@host/db", "needs a user, a host and a database"),
        ]
        for (url, message) in cases {
            #expect(throws: DatabaseError.self) { try DatabaseAddress(url) }
            do { _ = try DatabaseAddress(url) } catch { #expect(error.description.contains(message), "\(url): \(error)") }
        }
    }

    /// A listing's row for COPY: tabs, newlines, backslashes and quotes in its texts escaped, missing values
    /// as \N, the days as array literals.
    @Test func aCopyLineEscapesWhatCopyAndArraysNeed() {
        let record = ListingRecord(id: 7, name: "Tab\there\nnew \\ line", region: RegionPath(city: "Antwerp", neighbourhood: "Zuid"),
                                   roomType: "Private room", accommodates: 2, price: nil, recentReviewCount: 9, amenities: ["Wifi", "Say \"hi\"", "a\\b"])
        let listing = EditableListing(record: record, prices: [100, -1], bookable: [true, false],
                                      rules: [StayRule(minimumNights: 2, maximumNights: 30).packed, StayRule(minimumNights: 1, maximumNights: 5).packed])
        var line: [UInt8] = []
        ListingRow.appendCopyLine(listing, to: &line)
        let fields = String(decoding: line, as: UTF8.self).dropLast().split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count == ListingRow.columns.count)
        #expect(fields[1] == #"Tab\there\nnew \\ line"#)
        #expect(fields[7] == #"\N"#)
        #expect(fields[18] == #"{"Wifi","Say \\"hi\\"","a\\\\b"}"#)
        #expect(fields[21...].joined(separator: "|") == #"{100,-1}|{t,f}|{2,1}|{30,5}|9|\N"#)
        // Fees: six numbers (an amount not given -1).
        var withFees = listing
        withFees.record.fees = ListingFees(cleaningFee: Money(minorUnits: 4_500), guestsIncluded: 2, weeklyDiscountBasisPoints: 1_000)
        var feeLine: [UInt8] = []
        ListingRow.appendCopyLine(withFees, to: &feeLine)
        #expect(String(decoding: feeLine, as: UTF8.self).dropLast().split(separator: "\t", omittingEmptySubsequences: false).last
                == "{4500,2,-1,1000,0,-1}")
    }
}

import StayData
import Testing

@Suite struct AmenityListTests {
    private func parse(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { AmenityList.parse($0) }
    }

    /// Names without escapes (made straight from the bytes) and with them (decoded one by one) give the
    /// same strings; names are trimmed, empty ones dropped.
    @Test func namesWithAndWithoutEscapes() {
        #expect(parse(#"["Wifi", "Kitchen"]"#) == ["Wifi", "Kitchen"])
        #expect(parse(#" [ ] "#) == [])
        #expect(parse(#"["  Hot tub ", "", " "]"#) == ["Hot tub"])
        #expect(parse(#"["Caf\u00e9 machine", "Caf\u00E9 machine"]"#) == ["Café machine", "Café machine"])
        #expect(parse(#"["Café machine"]"#) == ["Café machine"])
        #expect(parse(#"["50\" TV", "a\\b", "x\/y", "tab\there"]"#) == ["50\" TV", "a\\b", "x/y", "tab\there"])
        #expect(parse(#"["\ud83d\ude00 smile"]"#) == ["😀 smile"])
    }

    @Test func notAnArrayOfStrings() {
        for bad in [#""#, #"Wifi"#, #"["Wifi""#, #"["Wifi", oops]"#, #"["Wifi",]"#, #"["a\qb"]"#, #"["\ud83d"]"#,
                    #"["\ude00"]"#, "[\"line\nbreak\"]", #"["Wifi"] x"#, #"["\u12"]"#] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }

    private func parseEither(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { AmenityList.parseEither($0) }
    }

    /// The older files' `{…}` lists (PostgreSQL's array literal, the CSV quotes already undone): bare and
    /// quoted names, commas and braces inside quotes, backslash escapes, NULL, the scraper's placeholders.
    @Test func listsInBraces() {
        #expect(parseEither(#"{TV,"Cable TV",Internet,Wifi}"#) == ["TV", "Cable TV", "Internet", "Wifi"])
        #expect(parseEither(#" {} "#) == [])
        #expect(parseEither(#"{ Hot tub , "  Pool ",""}"#) == ["Hot tub", "Pool"])
        #expect(parseEither(#"{"Washer / Dryer","a,b","{x}","50\" TV","back\\slash"}"#)
                == ["Washer / Dryer", "a,b", "{x}", "50\" TV", "back\\slash"])
        #expect(parseEither(#"{Wifi,NULL,"NULL"}"#) == ["Wifi", "NULL"])
        #expect(parseEither(#"{Wifi,"translation missing: en.hosting_amenity_49",Kitchen}"#) == ["Wifi", "Kitchen"])
        #expect(parseEither(#"{Café,"Caf\é"}"#) == ["Café", "Café"])
        #expect(parseEither(#"["Wifi", "translation missing: en.hosting_amenity_50"]"#) == ["Wifi"])
        for bad in [#"{"#, #"{Wifi"#, #"{"Wifi}"#, #"{Wifi,,TV}"#, #"{Wifi,}"#, #"{{a},b}"#, #"{a"b}"#, #"{Wifi} x"#,
                    #"{"a" b}"#, #"{a\"#] {
            #expect(parseEither(bad) == nil, "\(bad)")
        }
    }

    /// Trimming leaves fields that start and end with visible ASCII alone and trims the rest.
    @Test func trimming() {
        #expect("Wifi".trimmingSpaces == "Wifi")
        #expect(" Wifi\t".trimmingSpaces == "Wifi")
        #expect("\u{00A0}Öl\u{2003}".trimmingSpaces == "Öl")
        #expect("Öl".trimmingSpaces == "Öl")
        #expect("   ".trimmingSpaces == "")
        #expect("".trimmingSpaces == "")
    }
}

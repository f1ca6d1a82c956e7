/// A city the generator places listings in: where it is, how dear, and its neighbourhoods.
struct SyntheticCity {
    var name: String
    var latitude: Double
    var longitude: Double
    /// Share of all listings.
    var weight: Double
    /// Prices relative to Antwerp, the calibration sample.
    var priceFactor: Double
    /// Neighbourhood groups (empty name: none) and their neighbourhoods.
    var groups: [(name: String, neighbourhoods: [String])]
    /// The day of the year (1–365) when its prices peak under dynamic pricing: summer in the north,
    /// January in São Paulo, autumn leaves in Albany.
    var seasonPeak: Int

    /// The city named `name` (the first city for a name that is none of them).
    static func named(_ name: String) -> SyntheticCity { all.first { $0.name == name } ?? all[0] }

    /// Cities with and without neighbourhood groups, several spelled with non-ASCII letters.
    static let all: [SyntheticCity] = [
        SyntheticCity(name: "Antwerp", latitude: 51.2194, longitude: 4.4025, weight: 3, priceFactor: 1.0, groups: [
            ("", ["Centraal Station", "Historisch Centrum", "Zuid", "Eilandje", "Zurenborg", "Amandus - Atheneum",
                  "Theaterbuurt-Meir", "Borgerhout Intra Muros Noord", "Berchem", "Linkeroever", "Kiel", "Stuivenberg"]),
        ], seasonPeak: 200),
        SyntheticCity(name: "Zürich", latitude: 47.3769, longitude: 8.5417, weight: 2, priceFactor: 1.7, groups: [
            ("Kreis 1", ["Altstadt", "Lindenhof", "City", "Rathaus"]),
            ("Kreis 2", ["Enge", "Wollishofen", "Leimbach"]),
            ("Kreis 3", ["Alt-Wiedikon", "Friesenberg", "Sihlfeld"]),
            ("Kreis 4", ["Werd", "Langstrasse", "Hard"]),
            ("Kreis 7", ["Fluntern", "Hottingen", "Hirslanden", "Witikon"]),
            ("Kreis 8", ["Seefeld", "Mühlebach", "Weinegg"]),
            ("Kreis 10", ["Höngg", "Wipkingen"]),
            ("Kreis 11", ["Oerlikon", "Affoltern", "Seebach"]),
        ], seasonPeak: 190),
        SyntheticCity(name: "São Paulo", latitude: -23.5505, longitude: -46.6333, weight: 4, priceFactor: 0.55, groups: [
            ("", ["Pinheiros", "Vila Madalena", "Jardim Paulista", "Moema", "Bela Vista", "Consolação", "República",
                  "Itaim Bibi", "Vila Mariana", "Liberdade", "Perdizes", "Butantã", "Santa Cecília", "Brooklin"]),
        ], seasonPeak: 20),
        SyntheticCity(name: "Kraków", latitude: 50.0647, longitude: 19.9450, weight: 2, priceFactor: 0.6, groups: [
            ("", ["Stare Miasto", "Kazimierz", "Podgórze", "Krowodrza", "Zwierzyniec", "Dębniki", "Grzegórzki",
                  "Prądnik Biały", "Łagiewniki-Borek Fałęcki", "Nowa Huta"]),
        ], seasonPeak: 215),
        SyntheticCity(name: "Reykjavík", latitude: 64.1466, longitude: -21.9426, weight: 1, priceFactor: 1.5, groups: [
            ("", ["Miðborg", "Vesturbær", "Hlíðar", "Laugardalur", "Háaleiti og Bústaðir", "Breiðholt", "Grafarvogur"]),
        ], seasonPeak: 180),
        SyntheticCity(name: "Albany", latitude: 42.6526, longitude: -73.7562, weight: 1, priceFactor: 1.1, groups: [
            ("", ["FIRST WARD", "SECOND WARD", "THIRD WARD", "FOURTH WARD", "FIFTH WARD", "SIXTH WARD", "SEVENTH WARD",
                  "EIGHTH WARD", "NINTH WARD", "TENTH WARD"]),
        ], seasonPeak: 280),
        SyntheticCity(name: "Malmö", latitude: 55.6050, longitude: 13.0038, weight: 1, priceFactor: 1.1, groups: [
            ("Centrum", ["Gamla Staden", "Rådmansvången", "Davidshall", "Möllevången"]),
            ("Väster", ["Västra Hamnen", "Ribersborg", "Limhamn"]),
            ("Söder", ["Sofielund", "Hermodsdal"]),
        ], seasonPeak: 195),
    ]
}

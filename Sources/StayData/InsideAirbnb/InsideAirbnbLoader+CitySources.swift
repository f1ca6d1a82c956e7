import StaySearch

extension InsideAirbnbLoader {
    /// The listings and calendar of one city as byte sources, opened when they are read.
    public struct CitySources {
        /// The city the listings belong to.
        public var city: String
        /// The listings' name in messages (a path).
        public var listingsName: String
        /// Opens the listings.
        public var listings: () throws(DataError) -> any ByteSource
        /// The calendar's name in messages (a path).
        public var calendarName: String
        /// Opens the calendar.
        public var calendar: () throws(DataError) -> any ByteSource
        /// The calendar's path when it is an uncompressed file that may be read in parts.
        public var plainCalendarPath: String?
        /// The neighbourhood boundaries' GeoJSON file, when the folder has one.
        public var neighbourhoodsPath: String?
        /// The region aliases' file (`aliases.csv`), when the folder has one.
        public var aliasesPath: String?
        /// The listings' fees (`fees.csv`), when the folder has one.
        public var feesPath: String?

        /// Creates the sources of one city.
        public init(city: String, listingsName: String, listings: @escaping () throws(DataError) -> any ByteSource,
                    calendarName: String, calendar: @escaping () throws(DataError) -> any ByteSource) {
            self.city = city
            self.listingsName = listingsName
            self.listings = listings
            self.calendarName = calendarName
            self.calendar = calendar
        }
    }
}

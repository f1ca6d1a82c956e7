/// The tables of a staysearch system of record (docs/fleet.md, "The database").
///
/// - `staysearch_calendar`: one row, the span of days every listing's nights cover: a first day, a day count
///   that grows as the window rolls (a listing's arrays may be shorter: its later days have no calendar row),
///   and the window's length (`window_days`, the loaded scrape's day count).
/// - `staysearch_clock`: one row, the fleet's clock: the day set for it (`db clock --today`; NULL: the
///   database's own date in UTC, `staysearch_today()`) and the today the change log last announced
///   (a `{"today": …}` entry, written once the date moves; every replica takes the new day at its position).
/// - `listings`: every field the index has, and the listing's days as four arrays over that span: the
///   stored price (minor units; −1 no price, −2 no calendar row), whether the night is open, and the stay
///   rule of a check-in on that day; `fees` (NULL: none; see ``ListingRow/feeValues(_:)``); `scraped`: whether it came from a scrape (`db load`, `db refresh`) rather
///   than a `listing` change. Each listing's row is what a change locks and decides on.
/// - `bookings`: the stays booked through staysearch, not since cancelled or reopened; an exclusion
///   constraint refuses two overlapping stays of one listing, whichever replica asked. A booking stays when
///   its listing is removed, and a refresh keeps its nights closed if the listing comes back.
/// - `change_log`: every accepted change, as the JSON line replicas apply, numbered in commit order by a
///   deferred trigger that runs as its transaction commits (``positionLock``).
/// - `staysearch_snapshots`: the index files `db snapshot` made, with their positions; `staysearch_log_trim`:
///   the last position `db trim` removed from the log.
/// - `neighbourhood_rings`: the neighbourhoods' boundaries, for maps.
/// - `region_aliases`: other names of regions (`aliases.csv`), the region as a path inside its city.
/// - `listing_nights`: a view of the nights, one row each, for people.
public enum DatabaseSchema {
    /// The advisory lock every write transaction takes as it commits, to number its change: positions are
    /// handed out in commit order (docs/fleet.md, "Commit order"). Taken by the deferred trigger
    /// `change_log_number`, so that no round trip to a client happens while it is held.
    static let positionLock: Int64 = 0x5354_4159_534C_4F47      // "STAYSLOG"

    /// The advisory lock between writes and the clock: every write holds it shared while it decides on the
    /// log's today; a new day takes it alone, so that every change decided on the old day commits before
    /// the day's entry, and every change after it is decided on the new day.
    static let clockLock: Int64 = 0x5354_4159_4441_5953      // "STAYDAYS"

    /// The most days the calendars may hold from their first day (`staysearch_calendar.day_count`'s check).
    static let largestDayCount = 1_000_000

    /// The channel every write notifies as it commits (from `change_log_number`).
    static let channel = "staysearch_changes"

    /// The statements that create the tables, in order.
    static let creation: [String] = [
        "CREATE EXTENSION IF NOT EXISTS btree_gist",
        """
        CREATE TABLE staysearch_calendar (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            first_day date NOT NULL,
            day_count integer NOT NULL CHECK (day_count BETWEEN 0 AND \(largestDayCount))
        )
        """,
        """
        CREATE TABLE listings (
            id bigint PRIMARY KEY,
            name text NOT NULL,
            city text NOT NULL,
            neighbourhood_group text NOT NULL,
            neighbourhood text NOT NULL,
            room_type text NOT NULL,
            accommodates integer NOT NULL,
            price_minor bigint,
            minimum_nights integer NOT NULL,
            maximum_nights integer NOT NULL,
            rating_hundredths integer,
            reviews integer NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            bedrooms integer,
            beds integer,
            bathroom_halves integer,
            property_type text NOT NULL,
            amenities text[] NOT NULL,
            instant_bookable boolean NOT NULL,
            superhost boolean NOT NULL,
            night_prices bigint[] NOT NULL,
            night_open boolean[] NOT NULL,
            night_minimum integer[] NOT NULL,
            night_maximum integer[] NOT NULL,
            recent_reviews integer NOT NULL DEFAULT 0,
            fees bigint[] CHECK (fees IS NULL OR cardinality(fees) = 6)
        )
        """,
        """
        CREATE TABLE bookings (
            listing bigint NOT NULL,
            stay daterange NOT NULL CHECK (NOT isempty(stay)),
            guests integer,
            booked_at timestamptz NOT NULL DEFAULT now(),
            EXCLUDE USING gist (listing WITH =, stay WITH &&)
        )
        """,
        "CREATE SEQUENCE change_positions",
        """
        CREATE TABLE change_log (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            position bigint UNIQUE,
            change text NOT NULL,
            committed_at timestamptz NOT NULL DEFAULT clock_timestamp()
        )
        """,
        """
        CREATE FUNCTION change_log_number() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(\(positionLock));
            UPDATE change_log SET position = nextval('change_positions'), committed_at = clock_timestamp() WHERE id = NEW.id;
            PERFORM pg_notify('\(channel)', '');
            RETURN NULL;
        END $$
        """,
        """
        CREATE CONSTRAINT TRIGGER change_log_number AFTER INSERT ON change_log DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION change_log_number()
        """,
        """
        CREATE TABLE neighbourhood_rings (
            city text NOT NULL,
            name text NOT NULL,
            ring integer NOT NULL,
            latitudes double precision[] NOT NULL,
            longitudes double precision[] NOT NULL,
            PRIMARY KEY (city, name, ring)
        )
        """,
        """
        CREATE TABLE region_aliases (
            city text NOT NULL,
            alias text NOT NULL,
            region text NOT NULL,
            PRIMARY KEY (city, alias, region)
        )
        """,
        nightsView,
    ]

    /// The view of the nights, one row each (`listing_nights`).
    static let nightsView = """
        CREATE VIEW listing_nights AS
            SELECT l.id AS listing, c.first_day + (d.n - 1) AS night,
                   CASE WHEN l.night_prices[d.n] >= 0 THEN l.night_prices[d.n] END AS price_minor,
                   CASE coalesce(l.night_prices[d.n], -2) WHEN -2 THEN 'outside calendar' WHEN -1 THEN 'unpriced'
                        ELSE CASE WHEN l.night_open[d.n] THEN 'available' ELSE 'booked' END END AS status,
                   coalesce(l.night_minimum[d.n], l.minimum_nights) AS minimum_nights,
                   coalesce(l.night_maximum[d.n], l.maximum_nights) AS maximum_nights
            FROM listings l CROSS JOIN staysearch_calendar c CROSS JOIN LATERAL generate_series(1, c.day_count) AS d(n)
        """

    /// The statements that create the clock, the snapshots' register and the log's trimmed mark; each may
    /// run again (a database made before them has none: a replica, `db clock`, `db snapshot` and `db trim`
    /// add them).
    static let additions: [String] = [
        """
        CREATE TABLE IF NOT EXISTS staysearch_snapshots (
            position bigint PRIMARY KEY,
            path text NOT NULL,
            today date,
            listings integer NOT NULL,
            made_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS staysearch_log_trim (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            trimmed_through bigint NOT NULL DEFAULT 0
        )
        """,
        "INSERT INTO staysearch_log_trim (only_row) VALUES (true) ON CONFLICT DO NOTHING",
        """
        CREATE TABLE IF NOT EXISTS staysearch_clock (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            set_today date,
            logged_today date
        )
        """,
        "INSERT INTO staysearch_clock (only_row) VALUES (true) ON CONFLICT DO NOTHING",
        """
        CREATE OR REPLACE FUNCTION staysearch_today() RETURNS date LANGUAGE sql STABLE AS $$
            SELECT coalesce((SELECT set_today FROM staysearch_clock), (now() AT TIME ZONE 'UTC')::date)
        $$
        """,
        // The platform's settings (`db settings`): the line of the change-log entry that last set them.
        """
        CREATE TABLE IF NOT EXISTS staysearch_settings (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            entry text NOT NULL
        )
        """,
        "ALTER TABLE staysearch_calendar ADD COLUMN IF NOT EXISTS window_days integer",
        // Listings from a scrape (`db load`, `db refresh`) and those added with `op listing`, which a refresh
        // leaves alone; a database made before the column counts every listing it has as scraped.
        "ALTER TABLE listings ADD COLUMN IF NOT EXISTS scraped boolean NOT NULL DEFAULT true",
        // Fees: a database made before the column has none.
        "ALTER TABLE listings ADD COLUMN IF NOT EXISTS fees bigint[] CHECK (fees IS NULL OR cardinality(fees) = 6)",
        // Prices up to 1,000,000,000.00 a night: a database made before them keeps 32-bit prices until this widens them
        // (the view of the nights, which reads them, made again).
        """
        DO $$ BEGIN
            IF (SELECT atttypid FROM pg_attribute WHERE attrelid = 'listings'::regclass AND attname = 'night_prices') = 'integer[]'::regtype THEN
                DROP VIEW IF EXISTS listing_nights;
                ALTER TABLE listings ALTER COLUMN night_prices TYPE bigint[];
                \(nightsView);
            END IF;
        END $$
        """,
        // A booking outlives its listing's removal (a refresh that no longer finds it): the stay was sold.
        "ALTER TABLE bookings DROP CONSTRAINT IF EXISTS bookings_listing_fkey",
        // A write's day and the calendars' days: the clock lock taken shared, then the log's today read (a
        // statement of its own, so that it sees a new day committed while the lock was awaited); today NULL
        // when the log is behind the clock. Each one-row table read on its own: joined, the planner's guess for
        // tables never analysed (thousands of rows each) costs the join past jit_above_cost, and every write paid
        // 25–75 ms of JIT compilation.
        """
        CREATE OR REPLACE FUNCTION staysearch_write_day(OUT today date, OUT days integer) LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock_shared(\(clockLock));
            today := (SELECT logged_today FROM staysearch_clock);
            IF today < staysearch_today() THEN today := NULL; END IF;
            days := (SELECT day_count FROM staysearch_calendar);
        END $$
        """,
    ]

    /// The statements that drop the tables (`db init --reset`).
    static let removal: [String] = [
        "DROP VIEW IF EXISTS listing_nights",
        "DROP TABLE IF EXISTS bookings, change_log, neighbourhood_rings, region_aliases, listings, staysearch_calendar",
        "DROP FUNCTION IF EXISTS staysearch_write_day()",
        "DROP FUNCTION IF EXISTS staysearch_today()",
        "DROP TABLE IF EXISTS staysearch_clock, staysearch_snapshots, staysearch_log_trim, staysearch_settings",
        "DROP SEQUENCE IF EXISTS change_positions",
        "DROP FUNCTION IF EXISTS change_log_number()",
    ]
}

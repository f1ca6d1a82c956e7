import Foundation
import PostgresNIO
import StaySearch
import StaySearchAPI

/// The platform's settings as a fleet keeps them (`db settings`, docs/fleet.md, "Platform settings"): the
/// service fee and each city's tax, held in `staysearch_settings` and written to the change log as one
/// `{"settings": {"service_fee": "14.2", "taxes": {"Jersey City": "6.63"}}}` entry, so that every replica
/// takes them at the same position (and one that starts reads them from the table first).
enum PlatformSettings {
    /// The change-log line that sets `fees` (percentages as strings, exact; cities in name order).
    static func entry(for fees: PlatformFees) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("settings")
        json.beginObject()
        json.field("service_fee", string: PlatformFees.percentText(fees.serviceFeeBasisPoints))
        json.key("taxes")
        json.beginObject()
        for tax in fees.taxes { json.field(tax.city, string: PlatformFees.percentText(tax.basisPoints)) }
        json.endObject()
        json.endObject()
        json.endObject()
        return json.text
    }

    /// The settings of a change-log line when it is a settings entry, exactly as ``entry(for:)`` writes one
    /// (no change line a client writes is one: a change has an `op`).
    static func fees(inEntry line: String) -> PlatformFees? {
        guard line.hasPrefix("{\"settings\":"),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              object.count == 1, let settings = object["settings"] as? [String: Any],
              let serviceFee = (settings["service_fee"] as? String).flatMap(PlatformFees.basisPoints(percent:)),
              let taxes = settings["taxes"] as? [String: Any] else { return nil }
        var fees = PlatformFees(serviceFeeBasisPoints: serviceFee)
        for (city, percent) in taxes {
            guard let basisPoints = (percent as? String).flatMap(PlatformFees.basisPoints(percent:)) else { return nil }
            fees.setTax(city: city, basisPoints: basisPoints)
        }
        return entry(for: fees) == line ? fees : nil
    }

    /// The settings the database holds now (none set: no service fee, no taxes).
    static func read(on connection: PostgresConnection) async throws -> PlatformFees {
        let rows = try await connection.query("SELECT entry FROM staysearch_settings", logger: Database.logger).collect()
        guard let line = try rows.first?.decode(String.self, context: .default) else { return PlatformFees() }
        return fees(inEntry: line) ?? PlatformFees()
    }
}

extension Database {
    /// The platform's settings the fleet holds (`db settings`).
    /// - Throws: ``DatabaseError``.
    public func platformSettings() async throws(DatabaseError) -> PlatformFees {
        _ = try await clock()
        do {
            return try await PlatformSettings.read(on: connection)
        } catch {
            throw .failed(step: "reading the platform's settings", reason: DatabaseError.reason(of: error))
        }
    }

    /// The names of the cities the database's listings are in.
    /// - Throws: ``DatabaseError``.
    public func cityNames() async throws(DatabaseError) -> [String] {
        let rows = try await run("SELECT DISTINCT city FROM listings ORDER BY city", "reading the cities")
        return rows.compactMap { try? $0.decode(String.self, context: .default) }
    }

    /// Sets the platform's settings to `fees`: kept in the database and written to the change log in one
    /// transaction, so that every replica applies them at that position.
    /// - Returns: the entry's change-log position.
    /// - Throws: ``DatabaseError``.
    @discardableResult
    public func setPlatformSettings(_ fees: PlatformFees) async throws(DatabaseError) -> UInt64 {
        _ = try await clock()
        let line = PlatformSettings.entry(for: fees)
        try await run("BEGIN", "starting the transaction")
        do throws(DatabaseError) {
            try await run("""
                INSERT INTO staysearch_settings (only_row, entry) VALUES (true, \(line)) \
                ON CONFLICT (only_row) DO UPDATE SET entry = EXCLUDED.entry
                """, "keeping the settings")
            let logged = try await run("INSERT INTO change_log (change) VALUES (\(line)) RETURNING id", "logging the settings")
            let id = (try? logged.first?.decode(Int64.self, context: .default)) ?? 0
            try await run("COMMIT", "committing the settings")
            let rows = try await run("SELECT position FROM change_log WHERE id = \(id)", "reading the settings' position")
            return UInt64((try? rows.first?.decode(Int64.self, context: .default)) ?? 0)
        } catch {
            _ = try? await run("ROLLBACK", "rolling back")
            throw error
        }
    }
}

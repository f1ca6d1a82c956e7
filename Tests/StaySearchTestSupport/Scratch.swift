import Foundation

/// Where tests write files: one folder for the whole test process, removed when the process exits, so
/// that no run leaves files behind however its tests end.
public enum Scratch {
    /// The folder, made on first use.
    public static let folder: String = {
        let path = NSTemporaryDirectory() + "staysearch-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        removalPath = path
        atexit { if let path = Scratch.removalPath { try? FileManager.default.removeItem(atPath: path) } }
        return path
    }()

    /// The folder to remove at exit (read by the exit handler, which cannot capture).
    nonisolated(unsafe) private static var removalPath: String?

    /// A path no other test uses, ending in `name`; nothing is created there.
    public static func path(_ name: String) -> String {
        folder + "/\(UUID().uuidString.prefix(8))-\(name)"
    }

    /// A new, empty folder whose name ends in `name`.
    public static func directory(_ name: String) -> String {
        let path = path(name)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

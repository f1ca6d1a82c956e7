import Foundation
import StaySearchTestSupport

/// Runs the built `staysearch` binary and captures what it prints.
struct CommandRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The binary next to the test bundle (both are built into the same folder).
    static let binary: URL = {
        if let override = ProcessInfo.processInfo.environment["STAYSEARCH_BIN"] { return URL(fileURLWithPath: override) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent("staysearch")]
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            candidates.append(URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent("staysearch"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/staysearch"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs `staysearch ARGUMENTS` in `directory`, feeding `input` to standard input.
    static func run(_ arguments: [String], in directory: String = Scratch.folder, input: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let stdout = Pipe(), stdin = Pipe()
        let errorPath = Scratch.path("stderr")
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        // The input goes in on a thread of its own while the output is read here, so that neither pipe can
        // fill and stop the other side; a child that exits without reading it all is no crash (the throwing
        // write, not the deprecated one that traps on EPIPE, and SIGPIPE ignored).
        signal(SIGPIPE, SIG_IGN)
        let writer = Thread {
            if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try stderr.close()
        let errorData = try Data(contentsOf: URL(fileURLWithPath: errorPath))
        return Output(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }
}

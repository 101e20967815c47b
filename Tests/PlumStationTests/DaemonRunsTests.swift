import Foundation
import PlumTestSupport
import Testing

@testable import PlumStation

/// The run record's file on its own: the sealed file it is now, the bare record older daemons
/// wrote (read once, then sealed), and a damaged one.
@Suite("daemon-runs.json: sealed, an older daemon's file read once, a damaged one started afresh")
struct DaemonRunsTests {
    /// The file as JSON, to look at it as another program would.
    static func onDisk(_ directory: TemporaryDirectory) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.file(DaemonRuns.fileName)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a bare record an older daemon left running counts as unclean, and the start seals the file")
    func olderFileIsReadOnceAndSealed() throws {
        let directory = try TemporaryDirectory(prefix: "plumruns")
        // Byte for byte what the daemon wrote before the sealed file: pretty, keys sorted.
        _ = try directory.write(
            DaemonRuns.fileName,
            """
            {
              "last_stop" : "clean",
              "running" : true,
              "starts" : 4,
              "unclean_stops" : 1
            }

            """)
        let (first, note) = try DaemonRuns.begin(directory: directory.path)
        #expect(note == nil, "an older daemon's file is read, not reported: \(note ?? "")")
        #expect(first == .init(starts: 5, uncleanStops: 2, lastStop: "unclean", running: true))

        let sealed = try Self.onDisk(directory)
        #expect(sealed["format"] as? String == DaemonRuns.formatName, "\(sealed)")
        #expect(sealed["schemaVersion"] as? Int == 1)
        #expect((sealed["checksum"] as? String)?.hasPrefix("crc32:") == true, "\(sealed)")
        let payload = try #require(sealed["payload"] as? [String: Any], "\(sealed)")
        #expect(payload["starts"] as? Int == 5 && payload["unclean_stops"] as? Int == 2, "\(payload)")
        #expect(payload["running"] as? Bool == true)

        try DaemonRuns.end(first, directory: directory.path)
        let (second, again) = try DaemonRuns.begin(directory: directory.path)
        #expect(again == nil)
        #expect(second == .init(starts: 6, uncleanStops: 2, lastStop: "clean", running: true))
    }

    @Test("a damaged file starts the count afresh, and the note names the file and why")
    func damagedFileStartsAfresh() throws {
        let directory = try TemporaryDirectory(prefix: "plumruns")
        let path = try directory.write(DaemonRuns.fileName, "{\"starts\": 3, \"runn")
        let (record, note) = try DaemonRuns.begin(directory: directory.path)
        #expect(record == .init(starts: 1, uncleanStops: 0, lastStop: nil, running: true))
        let text = try #require(note, "a file that cannot be read is reported")
        #expect(text.hasPrefix(path) && text.contains("not a JSON object"), "\(text)")
        #expect(text.hasSuffix("counting starts afresh"), "\(text)")
        #expect(try Self.onDisk(directory)["format"] as? String == DaemonRuns.formatName)
    }

    @Test("a sealed file whose payload was changed is not trusted")
    func changedByteIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "plumruns")
        let (first, _) = try DaemonRuns.begin(directory: directory.path)
        try DaemonRuns.end(first, directory: directory.path)
        let path = directory.file(DaemonRuns.fileName)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"starts\" : 1"), "\(text)")
        try text.replacingOccurrences(of: "\"starts\" : 1", with: "\"starts\" : 7")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let (record, note) = try DaemonRuns.begin(directory: directory.path)
        #expect(record.starts == 1 && record.lastStop == nil, "\(record)")
        #expect(note?.contains("checksum") == true, "\(note ?? "no note")")
    }
}

import Foundation
import PlumCore
import PlumSystem
import PlumTestSupport
import Testing

@testable import PlumStore

/// The one sealed-file store every small state file is: what it refuses and why, and that a
/// failed step never costs the file already there.
@Suite("Sealed file: checksummed JSON written atomically, refused when damaged, foreign or newer")
struct SealedFileTests {
    struct Note: Codable, Hashable {
        var text: String
        var grams: Double
    }

    static let hint = "the notes start empty"

    static func file(
        _ directory: TemporaryDirectory, sensor: String? = nil, files: any FileSteps = SystemFileSteps()
    ) -> SealedFile<Note> {
        SealedFile(
            format: "plumscale-notes", schemaVersion: 2, contents: "notes", directory: directory.path,
            name: "notes.json", sensor: sensor, pretty: true, files: files)
    }

    /// The error of loading `text` written as the file.
    static func refusal(of text: String) throws -> CalibrationStoreError? {
        let directory = try TemporaryDirectory(prefix: "plumsealed")
        let file = Self.file(directory)
        try text.write(toFile: file.path, atomically: false, encoding: .utf8)
        guard case .failure(let error) = file.load(hint: hint) else { return nil }
        #expect(error.path == file.path && error.hint == hint, "\(error)")
        return error
    }

    @Test("what is saved loads back the same; no file is nil, not an error")
    func roundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "plumsealed")
        let file = Self.file(directory)
        #expect(try file.load(hint: Self.hint).get() == nil)
        try file.save(Note(text: "plum \"7\"", grams: 41.25), unchanged: "the notes are unchanged").get()
        #expect(try file.load(hint: Self.hint).get() == Note(text: "plum \"7\"", grams: 41.25))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".tmp"))
    }

    @Test("a changed byte in the payload is a checksum mismatch naming the stored checksum")
    func damagedChecksum() throws {
        let directory = try TemporaryDirectory(prefix: "plumsealed")
        let file = Self.file(directory)
        try file.save(Note(text: "a", grams: 12.5), unchanged: "unchanged").get()
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        let error = try #require(try Self.refusal(of: text.replacingOccurrences(of: "12.5", with: "13.5")))
        let stored = try #require(text.firstRange(of: "crc32:").map { String(text[$0.lowerBound...].prefix(14)) })
        #expect(error.code == .checksumMismatch && error.message.contains(stored), "\(error)")
    }

    @Test(
        "an empty file, one that is not JSON, or another program's JSON is corrupt, and says which",
        arguments: [
            ("", "it is empty"),
            ("{\"format\": \"plumscale-no", "not a JSON object (truncated or damaged, 24 bytes)"),
            ("{\"format\": \"plumscale-sessions\", \"schemaVersion\": 2}", "a \"plumscale-sessions\" file"),
            ("[1, 2]", "not a JSON object"),
            ("{\"schemaVersion\": 2}", "a JSON file without a format, not \"plumscale-notes\"")
        ])
    func foreignFile(text: String, says: String) throws {
        let error = try #require(try Self.refusal(of: text))
        #expect(error.code == .corrupt && error.message.contains("not a valid notes file: \(says)"), "\(error)")
    }

    @Test("a newer schema is refused as newer, asking for an update; an older unknown one as not this one")
    func newerSchema() throws {
        let newer = try #require(
            try Self.refusal(of: "{\"format\": \"plumscale-notes\", \"schemaVersion\": 3, \"payload\": {\"x\": 1}}"))
        #expect(newer.code == .futureVersion, "\(newer)")
        #expect(newer.message == "schema version 3 is not 2 (a newer PlumScale wrote it; update to read it)")
        let older = try #require(try Self.refusal(of: "{\"format\": \"plumscale-notes\", \"schemaVersion\": 1}"))
        #expect(older.code == .futureVersion && older.message == "schema version 1 is not 2", "\(older)")
    }

    @Test("a sound file missing a field says so; a sensor's file read as another sensor's is refused")
    func missingFieldAndWrongSensor() throws {
        let missing = try #require(
            try Self.refusal(of: "{\"format\": \"plumscale-notes\", \"schemaVersion\": 2, \"checksum\": \"x\"}"))
        #expect(missing.code == .corrupt && missing.message.contains("a field is missing"), "\(missing)")

        let directory = try TemporaryDirectory(prefix: "plumsealed")
        try Self.file(directory, sensor: "left-gain128").save(Note(text: "l", grams: 1), unchanged: "unchanged").get()
        let right = Self.file(directory, sensor: "right-gain128")
        guard case .failure(let error) = right.load(hint: Self.hint) else {
            Issue.record("another sensor's file was used")
            return
        }
        #expect(error.code == .wrongSensor && error.message.contains("sensor left-gain128, not right-gain128"))
    }

    @Test(
        "a failed write, fsync or rename leaves the old file whole, and names the step and errno",
        arguments: FailingFileSteps.Step.allCases)
    func failedStepKeepsOldFile(step: FailingFileSteps.Step) throws {
        let directory = try TemporaryDirectory(prefix: "plumsealed")
        let old = Note(text: "old", grams: 20)
        try Self.file(directory).save(old, unchanged: "unchanged").get()
        let failing = Self.file(directory, files: FailingFileSteps(failing: step, errno: .noSpace))
        guard case .failure(let error) = failing.save(Note(text: "new", grams: 30), unchanged: "the notes are kept")
        else {
            Issue.record("a save whose \(step) failed succeeded")
            return
        }
        let named = [
            "create": "writing", "syncFile": "syncing", "rename": "renaming", "syncDirectory": "syncing directory"
        ]
        #expect(error.code == .io && error.errno == 28 && error.message.hasPrefix(named[step.rawValue] ?? "?"))
        #expect(error.message.contains("No space left on device"), "\(error)")
        let left = step == .syncDirectory ? "may not survive a power cut" : "the notes are kept"
        #expect(
            error.hint.hasPrefix("the file system holding \(directory.path) is full: free some space there; ")
                && error.hint.hasSuffix(left),
            "a full disk is named as such, with where to free space: \(error)")
        #expect(
            !FileManager.default.fileExists(atPath: failing.path + ".tmp"),
            "a temporary file cut short is removed at once, not left holding blocks until the next start")
        let loaded = try Self.file(directory).load(hint: Self.hint).get()
        // Only a failed directory fsync comes after the rename: the new file is in place but
        // not yet durable, and the caller is told so.
        #expect(
            loaded == (step == .syncDirectory ? Note(text: "new", grams: 30) : old), "\(String(describing: loaded))")
    }

    @Test("an error other than a full disk asks to check space and permissions", arguments: [Int32(13), 5])
    func otherErrno(errno: Int32) throws {
        let directory = try TemporaryDirectory(prefix: "plumsealed")
        let failing = Self.file(directory, files: FailingFileSteps(failing: .create, errno: Errno(rawValue: errno)))
        guard case .failure(let error) = failing.save(Note(text: "n", grams: 1), unchanged: "kept") else {
            Issue.record("a failed write succeeded")
            return
        }
        #expect(error.hint == "check free space and permissions on \(directory.path); kept" && !error.isNoSpace)
    }
}

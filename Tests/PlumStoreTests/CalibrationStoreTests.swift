import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

@Suite("Calibration store")
struct CalibrationStoreTests {
    static func calibration(scale: Double, date: String) -> Calibration {
        var calibration = Fixtures.linearCalibration(createdAt: date)
        calibration.model = .polynomial(offset: 8_000, scale: scale, curvature: 0)
        return calibration
    }

    static let old = calibration(scale: 420, date: "2026-05-01T09:30:00Z")
    static let new = calibration(scale: 421.5, date: "2026-05-02T09:30:00Z")

    @Test("a saved calibration loads back identical, with its history")
    func roundTrip() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let store = CalibrationStore(directory: temporary.path)
        #expect(try store.load(Fixtures.sensor).get() == nil)
        try store.save(Self.old).get()
        try store.save(Self.new).get()
        #expect(try store.load(Fixtures.sensor).get() == Self.new)
        #expect(try store.loadAll(Fixtures.sensor).get() == [Self.new, Self.old])
        #expect(store.path(for: Fixtures.sensor).hasSuffix("/left-gain128.json"))
    }

    @Test("a save interrupted after any step leaves the old or the new calibration, and the next save succeeds")
    func crashConsistency() throws {
        // Enough crash points to cover every step of a save, and one beyond (no crash at all).
        var outcomes: Set<String> = []
        for crashAfter in 0...12 {
            let temporary = try TemporaryDirectory(prefix: "plumcore")
            let directory = temporary.path
            try CalibrationStore(directory: directory).save(Self.old).get()
            let crashing = CrashingFileSteps(crashAfter: crashAfter)
            _ = CalibrationStore(directory: directory, historyLimit: 5, files: crashing).save(Self.new)

            let fresh = CalibrationStore(directory: directory)
            let loaded = try fresh.load(Fixtures.sensor).get()
            #expect(loaded == Self.old || loaded == Self.new, "crash after step \(crashAfter)")
            outcomes.insert(loaded == Self.new ? "new" : "old")
            if loaded == Self.new { #expect(try fresh.loadAll(Fixtures.sensor).get() == [Self.new, Self.old]) }

            // Leftovers (a torn .tmp, a .prev.tmp link) never block the next save.
            let newer = Self.calibration(scale: 422, date: "2026-05-03T09:30:00Z")
            try fresh.save(newer).get()
            #expect(try fresh.load(Fixtures.sensor).get() == newer)
        }
        #expect(outcomes == ["old", "new"])
    }

    /// Saves two calibrations and returns the store and the file's text, with the directory
    /// they live in: it is removed when released, so the caller holds it to the end.
    static func savedTwice() throws -> (TemporaryDirectory, CalibrationStore, String) {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let store = CalibrationStore(directory: temporary.path)
        try store.save(old).get()
        try store.save(new).get()
        return (temporary, store, try String(contentsOfFile: store.path(for: Fixtures.sensor), encoding: .utf8))
    }

    static func overwrite(_ store: CalibrationStore, with text: String) throws {
        try text.write(toFile: store.path(for: Fixtures.sensor), atomically: false, encoding: .utf8)
    }

    @Test("a changed value fails the checksum: never used, and the error names the file and the way back")
    func checksumFailure() throws {
        let (temporary, store, text) = try Self.savedTwice()
        defer { withExtendedLifetime(temporary) {} }
        try Self.overwrite(store, with: text.replacingOccurrences(of: "421.5", with: "412.5"))
        guard case .failure(let error) = store.load(Fixtures.sensor) else {
            Issue.record("a damaged file was used")
            return
        }
        #expect(error.code == .checksumMismatch)
        #expect(error.description.contains(store.path(for: Fixtures.sensor)))
        #expect(error.description.contains("roll back"))
        #expect(error.description.contains("recalibrate"))
    }

    @Test("a re-indented but unchanged file still verifies: the checksum ignores whitespace between tokens")
    func canonicalChecksum() throws {
        let (temporary, store, text) = try Self.savedTwice()
        defer { withExtendedLifetime(temporary) {} }
        try Self.overwrite(store, with: text.replacingOccurrences(of: "\n", with: "\n  "))
        #expect(try store.load(Fixtures.sensor).get() == Self.new)
    }

    @Test("a truncated or empty file is refused as corrupt", arguments: [0.0, 0.3, 0.9])
    func truncated(keeping fraction: Double) throws {
        let (temporary, store, text) = try Self.savedTwice()
        defer { withExtendedLifetime(temporary) {} }
        try Self.overwrite(store, with: String(text.prefix(Int(Double(text.count) * fraction))))
        guard case .failure(let error) = store.load(Fixtures.sensor) else {
            Issue.record("a truncated file was used")
            return
        }
        #expect(error.code == .corrupt)
    }

    @Test("a file from a future schema version is refused, asking for an update")
    func futureVersion() throws {
        let (temporary, store, text) = try Self.savedTwice()
        defer { withExtendedLifetime(temporary) {} }
        try Self.overwrite(
            store, with: text.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2"))
        guard case .failure(let error) = store.load(Fixtures.sensor) else {
            Issue.record("a future file was used")
            return
        }
        #expect(error.code == .futureVersion)
        #expect(error.description.contains("update PlumScale"))
    }

    @Test("a file copied from another sensor is refused")
    func wrongSensor() throws {
        let (temporary, store, _) = try Self.savedTwice()
        defer { withExtendedLifetime(temporary) {} }
        let right = SensorIdentity(id: "right", model: "HX711 + 5 kg cell", channel: "A", gain: 128)
        try FileManager.default.copyItem(atPath: store.path(for: Fixtures.sensor), toPath: store.path(for: right))
        #expect(store.load(right).storeErrorCode == .wrongSensor)
    }

    @Test("rollback steps back through the history, then says there is nothing left")
    func rollback() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let store = CalibrationStore(directory: temporary.path)
        let third = Self.calibration(scale: 423, date: "2026-05-04T09:30:00Z")
        for calibration in [Self.old, Self.new, third] { try store.save(calibration).get() }
        #expect(try store.rollback(Fixtures.sensor).get() == Self.new)
        #expect(try store.load(Fixtures.sensor).get() == Self.new)
        #expect(try store.rollback(Fixtures.sensor).get() == Self.old)
        #expect(store.rollback(Fixtures.sensor).storeErrorCode == .noHistory)
        #expect(try store.load(Fixtures.sensor).get() == Self.old)
    }

    @Test("rollback of a damaged file restores the copy kept from before the last save")
    func rollbackFromDamage() throws {
        let (temporary, store, text) = try Self.savedTwice()
        defer { withExtendedLifetime(temporary) {} }
        try Self.overwrite(store, with: String(text.prefix(40)))
        #expect(try store.rollback(Fixtures.sensor).get() == Self.old)
        #expect(try store.load(Fixtures.sensor).get() == Self.old)
    }

    @Test("history keeps only the configured number of earlier calibrations")
    func historyLimit() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let store = CalibrationStore(directory: temporary.path, historyLimit: 3)
        for step in 0..<8 {
            try store.save(Self.calibration(scale: 400 + Double(step), date: "2026-05-0\(step + 1)")).get()
        }
        let all = try store.loadAll(Fixtures.sensor).get()
        #expect(all.count == 4)
        #expect(all.first?.createdAt == "2026-05-08")
    }

    @Test("an unreadable directory is an I/O error naming the path, not a crash")
    func missingDirectory() {
        let store = CalibrationStore(directory: "/nonexistent-plumcore-test-dir")
        guard case .failure(let error) = store.save(Self.old) else {
            Issue.record("saved into a missing directory")
            return
        }
        #expect(error.code == .io)
        #expect(error.errno == 2)
        #expect(error.description.contains("/nonexistent-plumcore-test-dir"))
    }
}

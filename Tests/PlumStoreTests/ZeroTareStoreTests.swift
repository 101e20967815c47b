import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

@Suite("Zero and tare store")
struct ZeroTareStoreTests {
    static let calibration = Fixtures.linearCalibration()

    static func state(zero: Double, tare: Double) -> ZeroTareState {
        ZeroTareState(
            sensor: Fixtures.sensor.fileStem, calibration: CalibrationReference(calibration), zeroOffset: zero,
            tare: tare)
    }

    @Test("a saved zero and tare load back identical; a sensor never saved has none")
    func roundTrip() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let store = ZeroTareStore(directory: temporary.path)
        #expect(try store.load(Fixtures.sensor).get() == nil)
        try store.save(Self.state(zero: 1.25, tare: 87.3), for: Fixtures.sensor).get()
        #expect(try store.load(Fixtures.sensor).get() == Self.state(zero: 1.25, tare: 87.3))
        #expect(store.path(for: Fixtures.sensor).hasSuffix("/left-gain128.zero-tare.json"))
    }

    @Test("a semi-automatic tare is saved and loaded at full resolution, not rounded to d")
    func fullResolutionTare() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let store = ZeroTareStore(directory: temporary.path)
        let state = Self.state(zero: 0.012_345_678, tare: 20.049_123_456_789)
        try store.save(state, for: Fixtures.sensor).get()
        #expect(try store.load(Fixtures.sensor).get() == state)
    }

    @Test("a save cut off after any step, a torn write included, leaves the old or the new values, never a mix")
    func crashConsistency() throws {
        let old = Self.state(zero: 0.5, tare: 20)
        let new = Self.state(zero: -0.75, tare: 153.1)
        for crashAfter in 0...4 {
            let temporary = try TemporaryDirectory(prefix: "plumcore")
            let directory = temporary.path
            try ZeroTareStore(directory: directory).save(old, for: Fixtures.sensor).get()
            let crashing = ZeroTareStore(directory: directory, files: CrashingFileSteps(crashAfter: crashAfter))
            let saved = crashing.save(new, for: Fixtures.sensor)
            let loaded = try ZeroTareStore(directory: directory).load(Fixtures.sensor).get()
            #expect(loaded == old || loaded == new, "after step \(crashAfter): \(String(describing: loaded))")
            if case .success = saved { #expect(loaded == new, "a save that succeeded was not durable") }
            // The next start removes the torn temporary file and the next save succeeds.
            _ = CalibrationStore(directory: directory).removeStaleTemporaryFiles()
            try ZeroTareStore(directory: directory).save(new, for: Fixtures.sensor).get()
            #expect(try ZeroTareStore(directory: directory).load(Fixtures.sensor).get() == new)
        }
    }

    @Test("a changed value, a truncated file or another sensor's file is refused, saying zero and tare start afresh")
    func damagedFiles() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let directory = temporary.path
        let store = ZeroTareStore(directory: directory)
        try store.save(Self.state(zero: 0.5, tare: 87.3), for: Fixtures.sensor).get()
        let path = store.path(for: Fixtures.sensor)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var damaged: [(String, CalibrationStoreError.Code)] = [
            (text.replacingOccurrences(of: "87.3", with: "97.3"), .checksumMismatch),
            (String(text.prefix(text.count / 2)), .corrupt)
        ]
        // Another sensor's sound file, copied over this one's.
        let other = SensorIdentity(id: "right", model: "hx711", gain: 128)
        var otherState = Self.state(zero: 0.1, tare: 5)
        otherState.sensor = other.fileStem
        try store.save(otherState, for: other).get()
        let otherText = try String(contentsOfFile: store.path(for: other), encoding: .utf8)
        damaged.append((otherText, .wrongSensor))
        for (contents, code) in damaged {
            try contents.write(toFile: path, atomically: false, encoding: .utf8)
            let result = store.load(Fixtures.sensor)
            #expect(result.storeErrorCode == code, "\(result)")
            if case .failure(let error) = result {
                #expect(error.description.contains(path) && error.description.contains("no tare"), "\(error)")
            }
        }
    }

    @Test("stale temporary files of both stores are removed at start; nothing else in the directory is")
    func staleTemporaryFiles() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let directory = temporary.path
        let stale = ["left-gain128.json.tmp", "left-gain128.json.prev.tmp", "left-gain128.zero-tare.json.tmp"]
        let kept = ["notes.tmp", "left-gain128.json.prev", "readme.txt"]
        for name in stale + kept {
            try Data("{\"torn".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
        }
        let removed = try CalibrationStore(directory: directory).removeStaleTemporaryFiles().get()
        #expect(Set(removed) == Set(stale))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(left) == Set(kept), "left: \(left)")
        #expect(try CalibrationStore(directory: directory).removeStaleTemporaryFiles().get().isEmpty)
    }

    @Test("listing a missing directory is an I/O error naming it")
    func missingDirectory() {
        let result = CalibrationStore(directory: "/nonexistent/plumscale").removeStaleTemporaryFiles()
        #expect(result.storeErrorCode == .io)
    }
}

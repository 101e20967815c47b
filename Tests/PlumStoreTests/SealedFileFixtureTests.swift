import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

/// Files the stores wrote before they shared ``SealedFile``, byte for byte as they are on users'
/// cards: each still loads as what was saved, and saving that again writes the same bytes, so
/// a card written by either version reads in the other.
@Suite("Sealed files written by the earlier stores: read, and written again byte for byte")
struct SealedFileFixtureTests {
    static let sensor = SensorIdentity(id: "left", model: "hx711", gain: 128)

    static let zeroTare = ZeroTareState(
        sensor: sensor.fileStem,
        calibration: CalibrationReference(
            sensor: sensor.fileStem, createdAt: "2026-05-01T09:30:00Z",
            model: .polynomial(offset: 8013.23, scale: 419.9873, curvature: 0)),
        zeroOffset: -0.75, tare: 153.1)

    static let settings = RuntimeSettings(
        alerts: ["fruit-low": .init(threshold: 150, hysteresis: nil, fileThreshold: 200, fileHysteresis: 20)],
        tares: ["bowl": 212.5, "crate 1.2 kg": 1200])

    /// A running session of two plums, classed small and large, both lifted off again: the
    /// earlier store kept no record of what is on the pan, and no number beyond its items'.
    static func book() throws -> SessionBook {
        let classes = try WeightClasses([.init(name: "small", minimumGrams: 0), .init(name: "large", minimumGrams: 60)])
        var session = try WeighingSession(
            name: "crate-7", division: .standard, classes: classes, startedAt: "2026-05-01T10:00:00Z")
        for (item, divisions) in [(1, Int64(412)), (2, 655)] {
            _ = session.record(
                ItemEvent(
                    sensor: "left", sequence: item, item: item, kind: .placed, divisions: divisions,
                    grossAfterDivisions: divisions, division: .standard, time: UInt64(item) * 1_000_000_000),
                at: "2026-05-01T10:0\(item):00Z")
            _ = session.record(
                ItemEvent(
                    sensor: "left", sequence: item, item: item, kind: .removed, divisions: divisions,
                    grossAfterDivisions: 0, division: .standard, time: UInt64(item) * 1_000_000_000),
                at: "2026-05-01T10:0\(item):30Z")
        }
        return SessionBook(running: .init(sensor: "left", session: session))
    }

    /// Writes `text` and a newline, as the file was, at `path`.
    static func place(_ text: String, at path: String) throws {
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The bytes at `path`, as text.
    static func bytes(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("a zero and tare file of the earlier store loads, and is written again the same")
    func zeroTare() throws {
        let old = try TemporaryDirectory(prefix: "plumfixture")
        let store = ZeroTareStore(directory: old.path)
        try Self.place(Self.zeroTareFile, at: store.path(for: Self.sensor))
        #expect(try store.load(Self.sensor).get() == Self.zeroTare)
        let new = try TemporaryDirectory(prefix: "plumfixture")
        let again = ZeroTareStore(directory: new.path)
        try again.save(Self.zeroTare, for: Self.sensor).get()
        #expect(try Self.bytes(again.path(for: Self.sensor)) == Self.zeroTareFile + "\n")
    }

    @Test("a runtime settings file of the earlier store loads, and is written again the same")
    func runtimeSettings() throws {
        let old = try TemporaryDirectory(prefix: "plumfixture")
        let store = RuntimeSettingsStore(directory: old.path)
        try Self.place(Self.settingsFile, at: store.path)
        #expect(try store.load().get() == Self.settings)
        let new = try TemporaryDirectory(prefix: "plumfixture")
        let again = RuntimeSettingsStore(directory: new.path)
        try again.save(Self.settings).get()
        #expect(try Self.bytes(again.path) == Self.settingsFile + "\n")
    }

    @Test("a sessions file of the earlier store loads, and is written again the same")
    func sessions() throws {
        let old = try TemporaryDirectory(prefix: "plumfixture")
        let store = SessionStore(directory: old.path)
        try Self.place(Self.sessionsFile, at: store.path)
        #expect(try store.load().get() == Self.book())
        let new = try TemporaryDirectory(prefix: "plumfixture")
        let again = SessionStore(directory: new.path)
        try again.save(Self.book()).get()
        #expect(try Self.bytes(again.path) == Self.sessionsFile + "\n")
    }

    @Test("a first calibration file of the earlier store loads, and is written again the same")
    func calibration() throws {
        let old = try TemporaryDirectory(prefix: "plumfixture")
        let store = CalibrationStore(directory: old.path)
        try Self.place(Self.calibrationFile, at: store.path(for: Self.sensor))
        // Compared with what was loaded, not recomputed: a fit's residuals may differ in the last
        // bits on another machine, and the file, not the fit, is what this test is about.
        let loaded = try store.loadAll(Self.sensor).get()
        #expect(loaded.count == 1 && loaded.first?.sensor.fileStem == Self.sensor.fileStem, "\(loaded)")
        let calibration = try #require(loaded.first)
        let new = try TemporaryDirectory(prefix: "plumfixture")
        let again = CalibrationStore(directory: new.path)
        try again.save(calibration).get()
        #expect(try Self.bytes(again.path(for: Self.sensor)) == Self.calibrationFile + "\n")
    }

    // The files as the earlier stores wrote them (the sessions file is one line, as written).

    static let zeroTareFile = #"""
        {
          "checksum" : "crc32:997d7d45",
          "format" : "plumscale-zero-tare",
          "payload" : {
            "calibration" : {
              "createdAt" : "2026-05-01T09:30:00Z",
              "model" : {
                "polynomial" : {
                  "curvature" : 0,
                  "offset" : 8013.23,
                  "scale" : 419.9873
                }
              },
              "sensor" : "left-gain128"
            },
            "sensor" : "left-gain128",
            "tare" : 153.1,
            "zeroOffset" : -0.75,
            "zeroReference" : 0
          },
          "schemaVersion" : 1,
          "sensor" : "left-gain128"
        }
        """#

    static let settingsFile = #"""
        {
          "checksum" : "crc32:64b05530",
          "format" : "plumscale-runtime-settings",
          "payload" : {
            "alerts" : {
              "fruit-low" : {
                "fileHysteresis" : 20,
                "fileThreshold" : 200,
                "threshold" : 150
              }
            },
            "tares" : {
              "bowl" : 212.5,
              "crate 1.2 kg" : 1200
            }
          },
          "schemaVersion" : 1
        }
        """#

    static let sessionsFile = #"""
        {"checksum":"crc32:4d79a8cb","format":"plumscale-sessions","payload":{"running":{"sensor":"left","session":{"classes":{"bands":[{"minimumGrams":0,"name":"small"},{"minimumGrams":60,"name":"large"}]},"division":0.1,"items":[{"divisions":412,"flags":0,"number":1,"recordedAt":"2026-05-01T10:01:00Z","weightClass":"small"},{"divisions":655,"flags":0,"number":2,"recordedAt":"2026-05-01T10:02:00Z","weightClass":"large"}],"name":"crate-7","startedAt":"2026-05-01T10:00:00Z"}},"stopped":[]},"schemaVersion":1}
        """#

    static let calibrationFile = #"""
        {
          "checksum" : "crc32:11c26c0c",
          "format" : "plumscale-calibration",
          "payload" : {
            "current" : {
              "capacity" : 385,
              "createdAt" : "2026-05-01T09:30:00Z",
              "kind" : "load-cell",
              "model" : {
                "polynomial" : {
                  "curvature" : 0,
                  "offset" : 7999.999999999978,
                  "scale" : 420.00000000000017
                }
              },
              "points" : [
                {
                  "grams" : 0,
                  "noise" : 10,
                  "samples" : 24,
                  "signal" : 8000
                },
                {
                  "grams" : 100,
                  "noise" : 10,
                  "samples" : 24,
                  "signal" : 50000
                },
                {
                  "grams" : 200,
                  "noise" : 10,
                  "samples" : 24,
                  "signal" : 92000
                },
                {
                  "grams" : 300,
                  "noise" : 10,
                  "samples" : 24,
                  "signal" : 134000
                }
              ],
              "quality" : {
                "grade" : "good",
                "maxResidual" : 5.684341886080802e-14,
                "rmsRelativeResidual" : 1.3674401325394234e-16,
                "rmsResidual" : 3.916031338633011e-14,
                "summary" : "largest residual 0.000 g (0.0 d): within one division, as a sound load cell should be"
              },
              "residuals" : [
                5.197112581559588e-14,
                1.4210854715202004e-14,
                0,
                -5.684341886080802e-14
              ],
              "sensor" : {
                "channel" : "A",
                "gain" : 128,
                "id" : "left",
                "model" : "HX711 + 5 kg cell"
              }
            },
            "history" : [

            ]
          },
          "schemaVersion" : 1,
          "sensor" : "left-gain128"
        }
        """#
}

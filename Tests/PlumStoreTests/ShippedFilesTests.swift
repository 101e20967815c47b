import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

/// The data files in the repository's `Calibration/` folder load as the engine expects.
@Suite("Shipped profiles and example calibrations")
struct ShippedFilesTests {
    static let calibrationFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Calibration")

    static let profileNames = [
        "hx711-1kg-gain128", "hx711-1kg-gain64", "hx711-5kg-gain128", "hx711-5kg-gain64", "fsr402-10k-3v3"
    ]

    @Test("every shipped sensor profile parses and gives a valid configuration", arguments: profileNames)
    func profile(_ name: String) throws {
        let url = Self.calibrationFolder.appendingPathComponent("profiles/\(name).json")
        let bytes = Array(try Data(contentsOf: url))
        let profile = try SensorProfile.decode(bytes, source: url.lastPathComponent).get()
        #expect(profile.name == name)
        let configuration = try profile.configuration().get()
        // The profile's average, in samples at its rate, becomes the same time in the engine.
        if let samples = profile.averagingSamples {
            let expected = Double(samples) / profile.samplesPerSecond * 1e9
            #expect(
                abs(Double(configuration.filter.averagingTime) - expected) <= 1,
                "averaging time \(configuration.filter.averagingTime) ns")
        }
        // The division must be coarser than the raw noise can fake: at least 2 σ.
        #expect(configuration.division.grams >= 2 * profile.typicalNoiseGrams)
    }

    @Test("a profile with a division that is not 1, 2 or 5 × 10^k is refused, naming the file")
    func badProfile() {
        let text =
            #"{"schemaVersion":1,"name":"x","description":"","kind":"load-cell","adc":"HX711","samplesPerSecond":80,"nominalSignalPerGram":400,"typicalNoiseGrams":0.1,"division":0.3}"#
        guard case .failure(let refusal) = SensorProfile.decode(Array(text.utf8), source: "x.json") else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.reason.contains("x.json"))
    }

    @Test("the example calibration files verify and load through the store", arguments: ["left-gain128", "plum-b"])
    func exampleCalibration(_ stem: String) throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        defer { withExtendedLifetime(temporary) {} }
        let directory = URL(fileURLWithPath: temporary.path)
        try FileManager.default.copyItem(
            at: Self.calibrationFolder.appendingPathComponent("schema/examples/\(stem).json"),
            to: directory.appendingPathComponent("\(stem).json"))
        let bytes = Array(try Data(contentsOf: directory.appendingPathComponent("\(stem).json")))
        let file = try CalibrationFile.decode(bytes, path: stem, expectedSensor: stem).get()
        let store = CalibrationStore(directory: directory.path)
        let loaded = try #require(try store.load(file.payload.current.sensor).get())
        #expect(loaded == file.payload.current)
        #expect(loaded.residuals.count == loaded.points.count)
    }
}

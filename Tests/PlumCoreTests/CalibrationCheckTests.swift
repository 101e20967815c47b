import Foundation
import Testing

@testable import PlumCore

/// A calibration that cannot be checked says so (issue 25, item 7): two points have no
/// redundancy, and a signal per gram far from the profile's is flagged before saving.
@Suite("Calibrations that cannot be checked")
struct CalibrationCheckTests {
    /// Points of an HX711 with a 1 kg, 1 mV/V cell at gain 128: 2147 counts per gram.
    static func points(placed: [Double], typed: [Double]) -> [CalibrationPoint] {
        zip(placed, typed).map { CalibrationPoint(grams: $1, signal: 50_000 + 2147 * $0, noise: 30, samples: 24) }
    }

    static func fit(_ points: [CalibrationPoint], nominal: Double? = 2147) throws -> Calibration {
        var configuration = ScaleConfiguration()
        configuration.nominalSignalPerGram = nominal
        return try CalibrationFit.fit(
            points: points, sensor: Fixtures.sensor, kind: .loadCell, configuration: configuration,
            createdAt: "2026-05-01T09:30:00Z"
        ).get()
    }

    @Test("zero and one weight fit exactly whatever the weight: graded not checked, with a third point suggested")
    func twoPoints() throws {
        // 100 g placed, 200 g typed: the fit reads everything 2× high, and its residuals are zero.
        let calibration = try Self.fit(Self.points(placed: [0, 100], typed: [0, 200]), nominal: nil)
        #expect(calibration.residuals.allSatisfy { abs($0) < 1e-6 })
        #expect(calibration.quality.grade == .notChecked)
        #expect(calibration.quality.summary.hasPrefix("not checked:"))
        #expect(calibration.quality.summary.contains("add a third point"))
    }

    @Test("a third point is redundancy: the same wrong weight then shows as residuals", arguments: [2.0, 1.0])
    func thirdPoint(factor: Double) throws {
        let calibration = try Self.fit(
            Self.points(placed: [0, 100, 300], typed: [0, 100 * factor, 300]), nominal: nil)
        #expect(calibration.quality.grade == (factor == 1 ? .good : .poor), "\(calibration.quality.summary)")
    }

    @Test("counts per gram far from the profile's cell and gain ask for confirmation; near it, not")
    func plausibility() throws {
        let wrong = try Self.fit(Self.points(placed: [0, 100], typed: [0, 200]))
        let warning = try #require(wrong.quality.warning)
        #expect(
            warning.contains("1074 per gram") && warning.contains("0.50 ×") && warning.contains("2147"), "\(warning)")
        #expect(warning.contains("heavier weight than was on the pan"))
        #expect(wrong.quality.summary.hasSuffix(warning))
        let right = try Self.fit(Self.points(placed: [0, 100, 300], typed: [0, 100, 300]))
        #expect(right.quality.warning == nil)
        // A 2 mV/V cell reads 2× the 1 mV/V profile: flagged too, for the user to confirm.
        let strong = try Self.fit(Self.points(placed: [0, 200], typed: [0, 100]))
        #expect(strong.quality.warning?.contains("lighter weight") == true)
    }

    @Test("a profile file's nominal signal per gram reaches the configuration of a load cell only")
    func profileNominal() throws {
        let json =
            #"{"schemaVersion":1,"name":"x","description":"","kind":"load-cell","adc":"HX711","#
            + #""samplesPerSecond":80,"nominalSignalPerGram":429,"typicalNoiseGrams":0.15,"division":0.5,"#
            + #""warmUpSeconds":30}"#
        let profile = try SensorProfile.decode(Array(json.utf8), source: "x.json").get()
        let configuration = try profile.configuration().get()
        #expect(configuration.nominalSignalPerGram == 429)
        #expect(configuration.warmUp == 30_000_000_000)
        let negative = json.replacingOccurrences(of: "\"warmUpSeconds\":30", with: "\"warmUpSeconds\":-1")
        #expect(negative != json)
        guard case .failure(let refusal) = SensorProfile.decode(Array(negative.utf8), source: "x.json") else {
            Issue.record("a negative warm-up was accepted")
            return
        }
        #expect(refusal.reason.contains("warmUpSeconds -1.0 is outside 0 ... 3600 s"), "\(refusal)")
    }
}

import Foundation
import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

@Suite("Calibration fits", .ownThreads)
struct CalibrationFitTests {
    static let configuration = ScaleConfiguration()

    static func fit(_ points: [CalibrationPoint], kind: SensorKind = .loadCell, quadratic: Bool = false) -> Result<
        Calibration, Refusal
    > {
        CalibrationFit.fit(
            points: points, sensor: Fixtures.sensor, kind: kind, configuration: configuration, quadratic: quadratic,
            createdAt: "2026-05-01T09:30:00Z")
    }

    @Test("a fit through points from a random linear sensor recovers its gain and offset within noise")
    func recoversLinearSensor() async {
        await propertyCheck(
            input: Gen.double(in: 50...2_000), Gen.bool, Gen.double(in: -1_000_000...1_000_000),
            Gen.double(in: 0...0.05),
            Gen.int(in: 0...1_000_000)
        ) { gain, inverted, offset, noiseGrams, seed in
            let scale = inverted ? -gain : gain
            let sigma = noiseGrams * gain  // counts
            var noise = SeededNoise(seed: UInt64(seed))
            let weights = [0.0, 100, 200, 385]
            var points: [CalibrationPoint] = []
            for _ in 0..<3 {
                for weight in weights {
                    points.append(
                        CalibrationPoint(
                            grams: weight, signal: offset + scale * weight + noise.gaussian(sigma: sigma), noise: sigma,
                            samples: 24))
                }
            }
            let calibration = try Self.fit(points).get()
            guard case .polynomial(let fittedOffset, let fittedScale, let curvature) = calibration.model else {
                Issue.record("not a polynomial model")
                return
            }
            // Standard errors of a straight-line fit at these weights, times five.
            let mean = weights.reduce(0, +) / 4
            let sxx = 3 * weights.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
            let scaleBound = 5 * sigma / sxx.squareRoot() + abs(scale) * 1e-9
            let offsetBound = 5 * sigma * (1.0 / 12 + mean * mean / sxx).squareRoot() + 1e-6
            #expect(abs(fittedScale - scale) <= scaleBound)
            #expect(abs(fittedOffset - offset) <= offsetBound)
            #expect(curvature == 0)
            #expect(calibration.residuals.count == points.count)
            #expect(calibration.quality.maxResidual <= 6 * noiseGrams + 1e-6)
        }
    }

    struct Degenerate: Sendable, CustomStringConvertible {
        var name: String
        var kind: SensorKind
        var quadratic: Bool
        var points: [CalibrationPoint]
        var code: Refusal.Code
        var description: String { name }
    }

    static func p(_ grams: Double, _ signal: Double, noise: Double = 5) -> CalibrationPoint {
        CalibrationPoint(grams: grams, signal: signal, noise: noise, samples: 24)
    }

    @Test(
        "degenerate point sets are refused with a reason and what to do",
        arguments: [
            Degenerate(
                name: "no zero", kind: .loadCell, quadratic: false, points: [p(100, 50_000), p(200, 92_000)],
                code: .tooFewPoints),
            Degenerate(
                name: "zero only", kind: .loadCell, quadratic: false, points: [p(0, 8_000), p(0, 8_001)],
                code: .tooFewPoints),
            Degenerate(
                name: "span under 20 %", kind: .loadCell, quadratic: false, points: [p(0, 8_000), p(50, 29_000)],
                code: .spanTooSmall),
            Degenerate(
                name: "weights too close", kind: .loadCell, quadratic: false,
                points: [p(0, 8_000), p(100, 50_000), p(100.5, 50_210)], code: .pointsTooClose),
            Degenerate(
                name: "non-monotone", kind: .loadCell, quadratic: false,
                points: [p(0, 8_000), p(100, 50_000), p(200, 40_000)], code: .nonMonotone),
            Degenerate(
                name: "noise larger than the step", kind: .loadCell, quadratic: false,
                points: [p(0, 8_000, noise: 30_000), p(100, 50_000, noise: 30_000)], code: .noiseLargerThanStep),
            Degenerate(
                name: "quadratic with two weights", kind: .loadCell, quadratic: true,
                points: [p(0, 8_000), p(100, 50_000), p(200, 92_000)], code: .tooFewPoints),
            Degenerate(
                name: "weight above capacity", kind: .loadCell, quadratic: false,
                points: [p(0, 8_000), p(1_000, 428_000)], code: .invalidWeight),
            Degenerate(
                name: "FSR with two weights", kind: .fsr, quadratic: false,
                points: [p(0, 0.5, noise: 0.01), p(100, 60, noise: 0.5), p(300, 200, noise: 0.5)], code: .tooFewPoints),
            Degenerate(
                name: "FSR conductance falling", kind: .fsr, quadratic: false,
                points: [
                    p(0, 0.5, noise: 0.01), p(100, 60, noise: 0.5), p(200, 50, noise: 0.5), p(300, 200, noise: 0.5)
                ],
                code: .nonMonotone)
        ])
    func refusesDegenerate(_ example: Degenerate) {
        guard case .failure(let refusal) = Self.fit(example.points, kind: example.kind, quadratic: example.quadratic)
        else {
            Issue.record("\(example.name) was accepted")
            return
        }
        #expect(refusal.code == example.code)
        #expect(!refusal.reason.isEmpty && !refusal.hint.isEmpty)
    }

    @Test("the span refusal names the shortfall and the weight to add")
    func spanMessage() {
        guard case .failure(let refusal) = Self.fit([Self.p(0, 8_000), Self.p(50, 29_000)]) else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.description.contains("50.0 g, under 20 % of capacity (77.0 g)"))
    }

    @Test("a quadratic fit recovers the curvature of a slightly non-linear cell and beats the straight line")
    func quadratic() throws {
        let truth = CalibrationModel.polynomial(offset: -20_000, scale: 400, curvature: 0.05)
        let points = [0.0, 50, 100, 200, 300, 385].map { Self.p($0, truth.signal(fromGrams: $0), noise: 1) }
        let curved = try Self.fit(points, quadratic: true).get()
        guard case .polynomial(_, let scale, let curvature) = curved.model else {
            Issue.record("not polynomial")
            return
        }
        #expect(abs(curvature - 0.05) < 1e-6)
        #expect(abs(scale - 400) < 1e-3)
        #expect(curved.quality.maxResidual < 1e-6)
        let straight = try Self.fit(points).get()
        #expect(straight.quality.maxResidual > 10 * curved.quality.maxResidual)
        #expect(abs((curved.grams(fromSignal: truth.signal(fromGrams: 250)) ?? .nan) - 250) < 1e-6)
    }

    @Test("an FSR power law is recovered from noisy points, with residuals in grams and the indicator notice")
    func fsrPowerLaw() throws {
        let truth = CalibrationModel.powerLaw(leakage: 0.4, coefficient: 0.9, exponent: 1.15)
        var noise = SeededNoise(seed: 21)
        let points = [0.0, 50, 100, 200, 385].map { grams in
            Self.p(
                grams, truth.signal(fromGrams: grams) * (grams == 0 ? 1 : 1 + noise.gaussian(sigma: 0.01)), noise: 0.05)
        }
        let calibration = try Self.fit(points, kind: .fsr).get()
        guard case .powerLaw(let leakage, let coefficient, let exponent) = calibration.model else {
            Issue.record("not a power law")
            return
        }
        #expect(leakage == 0.4)
        #expect(abs(exponent - 1.15) < 0.05)
        #expect(abs(coefficient - 0.9) / 0.9 < 0.25)
        #expect(calibration.quality.rmsRelativeResidual < 0.05)
        #expect(calibration.notice?.contains("not legal for trade") == true)
        #expect(calibration.notice?.contains("±5–25 %") == true)
        // Monotone everywhere, including between and beyond the points.
        let grams = stride(from: 0.0, through: 600, by: 5).map {
            calibration.grams(fromSignal: truth.signal(fromGrams: $0))!
        }
        #expect(zip(grams, grams.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("the procedure captures zero and weights only when stable, then commits a calibration the engine uses")
    func procedure() throws {
        var engine = try Fixtures.engine(calibrated: false)
        var noise = SeededNoise(seed: 8)
        var index = 0
        func hold(_ grams: Double, seconds: Double = 1) -> [Reading] {
            let count = Int(seconds * 80)
            defer { index += count }
            return Fixtures.feed(&engine, grams: grams, count: count, start: index, noise: &noise, sigma: 0.03)
        }
        #expect(engine.captureZero().refusalCode == .noProcedure)
        engine.beginCalibration()
        #expect(engine.captureWeight(grams: 100).refusalCode == .wrongStep)
        _ = hold(0)
        try engine.captureZero().get()
        #expect(engine.captureWeight(grams: 100).refusalCode == .wrongStep)  // zero still capturing
        let zeroPoints = hold(0).compactMap(\.capturedPoint)
        #expect(zeroPoints.count == 1)
        #expect(engine.procedure?.step == .ready(points: 1))
        for grams in [100.0, 200, 300] {
            try engine.captureWeight(grams: grams).get()
            let captured = (hold(grams, seconds: 0.2) + hold(grams)).compactMap(\.capturedPoint)
            #expect(captured.count == 1)
            #expect(abs((captured.first?.signal ?? 0) - Fixtures.signal(grams: grams)) < Fixtures.countsPerGram * 0.02)
        }
        let calibration = try engine.commitCalibration(createdAt: "2026-05-01T10:00:00Z").get()
        #expect(calibration.quality.grade == .good)
        #expect(engine.procedure == nil)
        let reading = hold(123.4).last!
        #expect(reading.text() == "123.4 g")
        #expect(reading.calibration == calibration)
    }

    @Test("committing too few points keeps the procedure open so a weight can be added")
    func refusedCommitKeepsProcedure() throws {
        var engine = try Fixtures.engine(calibrated: false)
        var noise = SeededNoise(seed: 2)
        engine.beginCalibration()
        _ = Fixtures.feed(&engine, grams: 0, count: 40, start: 0, noise: &noise)
        try engine.captureZero().get()
        _ = Fixtures.feed(&engine, grams: 0, count: 80, start: 40, noise: &noise)
        #expect(engine.commitCalibration(createdAt: "now").refusalCode == .tooFewPoints)
        #expect(engine.procedure != nil)
        engine.cancelCalibration()
        #expect(engine.procedure == nil && engine.calibration == nil)
    }

    @Test(
        "a point asked for before its weight is placed waits for the load to change instead of recording the empty pan")
    func pointWaitsForChangedLoad() throws {
        var engine = try Fixtures.engine(calibrated: false)
        var noise = SeededNoise(seed: 5)
        var index = 0
        func hold(_ grams: Double, seconds: Double = 1) -> [Reading] {
            let count = Int(seconds * 80)
            defer { index += count }
            return Fixtures.feed(&engine, grams: grams, count: count, start: index, noise: &noise, sigma: 0.03)
        }
        engine.beginCalibration()
        _ = hold(0)
        try engine.captureZero().get()
        #expect(hold(0).compactMap(\.capturedPoint).count == 1)
        try engine.captureWeight(grams: 100).get()
        #expect(hold(0, seconds: 2).compactMap(\.capturedPoint).isEmpty)
        #expect(engine.procedure?.unchangedSince == 0)
        #expect(engine.procedure?.step == .capturing(grams: 100))
        let captured = (hold(100, seconds: 0.2) + hold(100)).compactMap(\.capturedPoint)
        #expect(captured.count == 1)
        #expect(abs((captured.first?.signal ?? 0) - Fixtures.signal(grams: 100)) < Fixtures.countsPerGram * 0.02)
        // The same weight again is a repeat, not a forgotten placement: it is recorded.
        try engine.captureWeight(grams: 100).get()
        #expect(hold(100).compactMap(\.capturedPoint).count == 1)
    }

    @Test("a preview fits the points without putting the calibration into use")
    func previewLeavesEngineUnchanged() throws {
        var engine = try Fixtures.engine(calibrated: false)
        var noise = SeededNoise(seed: 6)
        var index = 0
        func hold(_ grams: Double) {
            _ = Fixtures.feed(&engine, grams: grams, count: 120, start: index, noise: &noise, sigma: 0.03)
            index += 120
        }
        engine.beginCalibration()
        hold(0)
        try engine.captureZero().get()
        hold(0)
        for grams in [150.0, 300] {
            try engine.captureWeight(grams: grams).get()
            hold(grams)
        }
        let preview = try engine.previewCalibration(createdAt: "now").get()
        #expect(preview.residuals.count == 3)
        #expect(engine.calibration == nil)
        #expect(engine.procedure?.points.count == 3)
        let committed = try engine.commitCalibration(createdAt: "now").get()
        #expect(committed == preview)
    }
}

import Testing

@testable import PlumCore

/// Before the first calibration no gram is known, so "stable" is judged against the signal's
/// own measured noise, in its own units, whatever the sensor delivers.
@Suite("Stability before calibration")
struct UncalibratedStabilityTests {
    /// A sensor as its driver reports it: signal per gram and noise in the signal's units.
    struct SignalCase: Sendable, CustomStringConvertible {
        var name: String
        var kind: SensorKind
        /// Signal units per gram (counts, mV or µS).
        var perGram: Double
        /// Noise in signal units, rms.
        var noise: Double
        /// The ADC's code width in signal units (0: not quantised).
        var quantum: Double
        var rate: Int
        var description: String { name }
    }

    static let cases: [SignalCase] = [
        // HX711, 1 kg cell at 1 mV/V, gain 128: 2147 counts/g, 90 nV rms ≈ 58 counts at 80 SPS.
        SignalCase(name: "HX711 counts, 80 SPS", kind: .loadCell, perGram: 2147, noise: 58, quantum: 1, rate: 80),
        SignalCase(name: "HX711 counts, 10 SPS", kind: .loadCell, perGram: 2147, noise: 32, quantum: 1, rate: 10),
        // The same cell on an ADS1115 at ±256 mV without a divider: 3.3 µV/g, 7.8 µV codes.
        SignalCase(
            name: "ADS1115 millivolts", kind: .loadCell, perGram: 0.0033, noise: 0.008, quantum: 0.0078125, rate: 64),
        // A kernel IIO ADC in millivolts with an amplified cell: 0.5 mV/g, 0.05 mV noise.
        SignalCase(name: "IIO millivolts", kind: .loadCell, perGram: 0.5, noise: 0.05, quantum: 0.001, rate: 50),
        // FSR conductance: about 1 µS/g, 0.3 µS noise.
        SignalCase(name: "FSR microsiemens", kind: .fsr, perGram: 1, noise: 0.3, quantum: 0, rate: 128)
    ]

    static func quantise(_ value: Double, _ quantum: Double) -> Double {
        quantum > 0 ? (value / quantum).rounded() * quantum : value
    }

    @Test(
        "a resting pan becomes stable within seconds, and one swinging well beyond the noise never is", arguments: cases
    )
    func restingAndSwinging(_ signal: SignalCase) throws {
        let sensor = SensorIdentity(id: "s", model: signal.name)
        var engine = try WeighingEngine(sensor: sensor, kind: signal.kind, configuration: ScaleConfiguration())
        var noise = SeededNoise(seed: 3)
        let period = 1_000_000_000 / UInt64(signal.rate)
        var index = 0
        func feed(seconds: Double, grams: (Double) -> Double) -> [Bool] {
            (0..<Int(seconds * Double(signal.rate))).map { _ in
                defer { index += 1 }
                let t = Double(index) / Double(signal.rate)
                let value = 1000 * signal.perGram + grams(t) * signal.perGram + noise.gaussian(sigma: signal.noise)
                return engine.process(
                    EngineInput(signal: Self.quantise(value, signal.quantum), time: UInt64(index) * period)
                ).isStable
            }
        }
        // At rest with 20 g on the pan: stable once the noise is known (16 differences) and a
        // window has passed, and it stays stable.
        let resting = feed(seconds: 6) { _ in 20 }
        let first = try #require(resting.firstIndex(of: true), "never stable at rest")
        #expect(
            Double(first) / Double(signal.rate) < 2.5, "first stable after \(Double(first) / Double(signal.rate)) s")
        let later = resting[(resting.count / 2)...]
        #expect(
            later.filter { !$0 }.count * 50 <= later.count,
            "unstable in \(later.filter { !$0 }.count) of \(later.count) readings at rest")
        // A hand placing a weight: the load swings at 2 Hz around 120 g, by 5 g or 12 σ of the
        // noise, whichever is more (a cell on a bare ADS1115 cannot see 5 g). The old rule (the
        // HX711's 2147 counts per gram for every signal) called millivolt sensors stable here.
        let swing = max(5, 12 * signal.noise / signal.perGram)
        let swinging = feed(seconds: 3) { 120 + swing * _sin(2 * Double.pi * 2 * $0) }
        #expect(!swinging.dropFirst(Int(0.3 * Double(signal.rate))).contains(true), "stable while the pan swings")
        // Resting again: stable again.
        let settled = feed(seconds: 3) { _ in 120 }
        #expect(settled.suffix(signal.rate).allSatisfy { $0 }, "not stable a second after the pan came to rest")
    }

    @Test("a quiet, quantised signal that never changes code is still judged: stable at rest, not when it steps")
    func quantisedSignal() throws {
        var engine = try WeighingEngine(sensor: SensorIdentity(id: "q", model: "ads1115"), kind: .loadCell)
        var readings: [Reading] = []
        for index in 0..<200 {
            // One code of flicker now and then, otherwise constant: MAD is zero.
            let code = 4_000.0 + (index % 37 == 0 ? 1 : 0)
            readings.append(engine.process(EngineInput(signal: code * 0.0078125, time: UInt64(index) * 15_625_000)))
        }
        #expect(readings.suffix(50).allSatisfy { $0.isStable }, "a constant code is at rest")
        // Ten codes up: far more than the two-quantum floor, so not stable at once.
        let stepped = engine.process(EngineInput(signal: 4_010 * 0.0078125, time: 200 * 15_625_000))
        #expect(!stepped.isStable, "stable on a 10-code step")
    }

    @Test(
        "a signal that never moved is not called stable on the step of the first load, and a calibration captures the load alone"
    )
    func firstChangeIsNotAQuantum() throws {
        // The emulated HX711 of the systemd suite: exact codes at 10 SPS, 60000 empty, then 200 g
        // at 1500 counts per gram. The first change ever seen is the load itself; taken as the
        // signal's quantum it made the unit 600000 counts, the step "stable" at once, and the
        // capture averaged one empty sample into the 200 g point (347500 for 360000: 4 % off).
        var engine = try WeighingEngine(sensor: SensorIdentity(id: "pan", model: "HX711"), kind: .loadCell)
        let period: UInt64 = 100_000_000
        var index: UInt64 = 0
        func feed(_ code: Double, _ count: Int) -> [Reading] {
            (0..<count).map { _ in
                defer { index += 1 }
                return engine.process(EngineInput(signal: code, time: index * period))
            }
        }
        _ = feed(60_000, 30)
        engine.beginCalibration()
        _ = try engine.captureZero().get()
        _ = feed(60_000, 40)
        _ = try engine.captureWeight(grams: 200).get()
        _ = feed(60_000, 37)  // the weight is not on yet: the capture waits for the load to change
        let placed = feed(360_000, 60)
        #expect(!placed[0].isStable, "stable on the sample where 200 g went on")
        let calibration = try engine.previewCalibration(createdAt: "2026-11-25T12:00:00Z").get()
        let grams = try #require(calibration.grams(fromSignal: 60_000 + 120 * 1500))
        #expect(abs(grams - 120) < 0.01, "120 g reads \(grams) g with the captured calibration")
    }
}

#if canImport(Glibc)
    import Glibc
    private func _sin(_ x: Double) -> Double { Glibc.sin(x) }
#endif

import Foundation
import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumSensors
import PlumSimulation
import Testing

/// Sensor profiles proved where they matter: the configuration text, through the one
/// conversion to engine settings, drives the real weighing engine.
@Suite("Sensor profiles in the engine")
struct ProfileEngineTests {
    /// The readings of `engine` for `grams(t)` sampled every `interval` ns for `seconds`.
    static func run(
        _ engine: inout WeighingEngine, calibration: Calibration, interval: UInt64, seconds: Double,
        from start: UInt64 = 0, grams: (Double) -> Double
    ) -> [Reading] {
        let count = Int(seconds * 1e9 / Double(interval))
        return (0..<count).map { index in
            let time = start + UInt64(index) * interval
            let signal = calibration.model.signal(fromGrams: grams(Double(time) / 1e9))
            return engine.process(EngineInput(signal: signal, time: time))
        }
    }

    @Test("an FSR profile keeps a slow drift in the reading instead of tracking it away as zero")
    func fsrDoesNotZeroTrack() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            initial_zero = false
            [[sensor]]
            name = "fsr"
            kind = "simulated-fsr"
            profile = "fsr402-10k-3v3"
            [[sensor]]
            name = "tracking"
            kind = "simulated-fsr"
            profile = "fsr402-10k-3v3"
            zero_tracking = true
            """, file: "fsr.toml")
        var outcomes: [String: (offset: Double, net: Double?)] = [:]
        for sensor in configuration.sensors {
            let scale = try configuration.engineConfiguration(for: sensor)
            // An FSR 402's power law (conductance = leakage + k·g^n), fitted as the wizard does.
            let points = [0.0, 100, 200, 385].map { CalibrationPoint(grams: $0, signal: 0.2 + 1.1 * pow($0, 0.9)) }
            let calibration = try CalibrationFit.fit(
                points: points, sensor: sensor.identity, kind: sensor.sensorKind, configuration: scale,
                createdAt: "test"
            ).get()
            var engine = try WeighingEngine(
                sensor: sensor.identity, kind: sensor.sensorKind, configuration: scale, calibration: calibration)
            // 128 SPS: 2 s untouched, then the FSR creeps 0.2 g/s for 10 s (2 g in all).
            let readings = Self.run(&engine, calibration: calibration, interval: 7_812_500, seconds: 12) { time in
                max(0, time - 2) * 0.2
            }
            outcomes[sensor.name] = (engine.zeroOffset, readings.last?.net)
        }
        let fsr = try #require(outcomes["fsr"])
        let tracking = try #require(outcomes["tracking"])
        #expect(fsr.offset == 0, "the FSR profile's engine moved its zero by \(fsr.offset) g: it tracked creep")
        #expect(abs((fsr.net ?? 0) - 2) < 0.2, "the 2 g of creep should still show, the net is \(fsr.net ?? .nan) g")
        // The same engine with zero-tracking on swallows it: the profile's setting is what matters.
        #expect(tracking.offset > 1.5, "with zero_tracking = true the drift should be tracked: \(tracking.offset)")
        #expect(abs(tracking.net ?? 9) < 0.5, "tracked zero should read about 0 g, reads \(tracking.net ?? .nan)")
    }

    @Test("one HX711 profile at 10 and 80 SPS: the same windows in seconds, and a small step settles alike")
    func hx711RatesAlike() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [[sensor]]
            name = "slow"
            kind = "simulated-hx711"
            rate = 10
            profile = "hx711-1kg-gain128"
            [[sensor]]
            name = "fast"
            kind = "simulated-hx711"
            rate = 80
            profile = "hx711-1kg-gain128"
            """, file: "rates.toml")
        var settled: [String: Double] = [:]
        for sensor in configuration.sensors {
            guard case .simulatedHX711(let wiring) = sensor.wiring else { throw ProfileTestError.notHX711 }
            let scale = try configuration.engineConfiguration(for: sensor)
            #expect(scale.filter.averagingTime == 200_000_000, "\(sensor.name): τ is not the profile's 200 ms")
            #expect(scale.effectiveStabilityWindow == 300_000_000, "\(sensor.name): the window is not 300 ms")
            let calibration = try #require(try SimulatedCalibration.exact(for: sensor, scale: scale))
            var engine = try WeighingEngine(
                sensor: sensor.identity, kind: sensor.sensorKind, configuration: scale, calibration: calibration)
            let interval = UInt64(1e9 / Double(wiring.driver.rate.samplesPerSecond))
            // 100 g for 3 s, then 0.33 g more, under the 4 d step threshold: the slow creep of §2.
            let readings = Self.run(&engine, calibration: calibration, interval: interval, seconds: 8) { time in
                time < 3 ? 100 : 100.33
            }
            let final = try #require(readings.last?.net)
            let after = readings.filter { $0.time >= 3_000_000_000 }
            for reading in after where reading.isStable {
                let net = reading.net ?? 0
                #expect(
                    abs(net - final) <= scale.division.grams * 1.0001,
                    "\(sensor.name): stable at \(net) g, over 1 d from the \(final) g it settles to")
            }
            let firstStable = try #require(after.first { $0.isStable }, "\(sensor.name) never became stable")
            settled[sensor.name] = Double(firstStable.time) / 1e9 - 3
        }
        let slow = try #require(settled["slow"])
        let fast = try #require(settled["fast"])
        // Windows in time: the rates differ only by when a sample happens to fall, at most one
        // 10 SPS interval each side.
        #expect(abs(slow - fast) <= 0.2, "stable after \(slow) s at 10 SPS but \(fast) s at 80 SPS")
    }

    enum ProfileTestError: Error { case notHX711 }
}

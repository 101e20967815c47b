import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSensors
import PlumSimulation
import PlumStore
import PlumTestSupport
import Testing

@testable import PlumStation

/// The station's state as a value, with no actor: what a sample and a request decide, as the
/// effects the actor then carries out.
@Suite("The station's state: a value that decides, and the effects it hands over")
struct StationStateTests {
    static let driver = HX711Configuration(gain: .channelA128, rate: .sps80)

    /// A state over `directory` with one calibrated simulated pan, "bowl".
    static func state(_ directory: TemporaryDirectory) throws -> StationState {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            initial_zero = false
            [[sensor]]
            name = "bowl"
            kind = "simulated-hx711"
            rate = 80
            """, file: "state.toml")
        var state = try StationState(
            configuration: configuration, files: StationFiles(CalibrationStore(directory: directory.path)),
            raw: RawBatcher(limit: 16, window: 100_000_000))
        let scale = try SensorEngines.scaleConfiguration(of: configuration)
        let exact = try #require(try SimulatedCalibration.exact(for: configuration.sensors[0], scale: scale))
        _ = state.update("bowl") { $0.engine.install(exact) }
        _ = state.takeEffects()
        return state
    }

    /// `count` samples of `grams`, 12.5 ms apart from `start` ns; the effects of each.
    static func feed(
        _ state: inout StationState, _ grams: Double, count: Int, start: UInt64
    ) throws -> [[StationEffects.Effect]] {
        let code = try NoiselessCodes().code(grams, driver: driver)
        return (0..<count).map { index in
            let time = MonotonicInstant(nanoseconds: start + UInt64(index) * 12_500_000)
            state.take(.sample(Sample(raw: code, signal: Double(code), time: time)), from: "bowl", now: time)
            return state.takeEffects().list
        }
    }

    @Test("a sample hands over its waits before its WEIGHT, and the state keeps none of it once taken")
    func sampleEffectsInOrder() throws {
        let directory = try TemporaryDirectory()
        var state = try Self.state(directory)
        let start = SystemMonotonicClock().now().nanoseconds
        let effects =
            try Self.feed(&state, 0, count: 40, start: start)
            + Self.feed(&state, 120, count: 40, start: start + 500_000_000)
        for list in effects {
            let waits = list.firstIndex { if case .waits = $0 { true } else { false } }
            let weight = list.firstIndex { if case .weight = $0 { true } else { false } }
            #expect(waits != nil, "every sample ends or serves the waits on its sensor")
            if let waits, let weight { #expect(waits < weight, "the waits are answered before the WEIGHT goes out") }
        }
        let shown = effects.last?.compactMap { effect -> WeightReport? in
            if case .weight(let report, _) = effect { report } else { nil }
        }.last
        #expect(shown?.grams == 120 && shown?.stable == true, "\(String(describing: shown))")
        #expect(state.takeEffects().list.isEmpty, "taken effects are not handed over twice")
    }

    @Test("a tare that cannot be saved is not kept: the engine is as before, the reply and the log say why")
    func unsavedTareIsNotKept() throws {
        let directory = try TemporaryDirectory()
        var state = try Self.state(directory)
        _ = try Self.feed(&state, 50, count: 40, start: SystemMonotonicClock().now().nanoseconds)
        // A directory where the save's temporary file must go: the save fails, whoever runs the test.
        _ = try directory.makeDirectory("bowl-gain128.zero-tare.json.tmp")
        let reply = state.reply(to: .tare(sensor: "bowl"), now: SystemMonotonicClock().now())
        guard case .command(let command) = reply else {
            Issue.record("not a command reply: \(reply)")
            return
        }
        #expect(!command.ok && command.reason == "notSaved" && command.message?.contains("then tare again") == true)
        #expect(state.channels["bowl"]?.engine.tare == 0, "the tare a restart would lose is not shown")
        let logged = state.takeEffects().list.compactMap { effect -> String? in
            if case .log(.error, let line) = effect { line } else { nil }
        }
        #expect(logged.count == 1 && logged[0].hasPrefix("bowl: zero and tare not saved"), "\(logged)")
    }
}

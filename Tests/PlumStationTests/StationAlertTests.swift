import Logging
import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSensors
import PlumSimulation
import PlumStore
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumStation

/// A station with one calibrated simulated pan and a "fruit-low" alert on it, fed with the chip
/// model's noiseless codes through the real engine.
struct AlertBench {
    let station: Station
    let publisher = RecordingPublisher()
    let directory: TemporaryDirectory
    private let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
    private let time = SampleClock()
    private let codes = NoiselessCodes()

    init(alert: String) async throws {
        directory = try TemporaryDirectory()
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            initial_zero = false
            [cue]
            chip = "gpiochip0"
            line = "GPIO18"
            [[sensor]]
            name = "bowl"
            kind = "simulated-hx711"
            rate = 80
            [[sensor]]
            name = "other"
            kind = "simulated-hx711"
            rate = 80
            [[alert]]
            name = "fruit-low"
            sensor = "bowl"
            \(alert)
            """, file: "alerts.toml")
        station = try Station(
            configuration: configuration, store: CalibrationStore(directory: directory.path), publisher: publisher)
        let scale = try SensorEngines.scaleConfiguration(of: configuration)
        let exact = try #require(try SimulatedCalibration.exact(for: configuration.sensors[0], scale: scale))
        _ = await station.install(exact, on: "bowl")
    }

    /// `count` samples of `grams`, 12.5 ms apart.
    func feed(_ grams: Double, count: Int = 40) async throws {
        let code = try codes.code(grams, driver: driver)
        for _ in 0..<count {
            let now = time.next.add(12_500_000, ordering: .relaxed).newValue
            let sample = Sample(raw: code, signal: Double(code), time: MonotonicInstant(nanoseconds: now))
            await station.handle(.sample(sample), from: "bowl")
        }
    }

    var alerts: [AlertReport] {
        publisher.reports.withLock { $0.compactMap { if case .alert(let alert) = $0 { alert } else { nil } } }
    }
}

@Suite("Alerts in the station: evaluated per reading through the real engine, sent as ALERT, pulsing the cue")
struct StationAlertTests {
    @Test("a bowl emptied and filled past the threshold raises then clears once; wobbling in the band sends nothing")
    func crossingWithHysteresis() async throws {
        let bench = try await AlertBench(alert: "below = 200\nhysteresis = 50")
        try await bench.feed(300)
        #expect(bench.alerts.isEmpty, "300 g is not below 200 g: \(bench.alerts)")
        try await bench.feed(150)
        var alerts = bench.alerts
        try #require(alerts.count == 1, "one ALERT when the bowl went under 200 g: \(alerts)")
        #expect(
            alerts[0].active && alerts[0].name == "fruit-low" && alerts[0].sensor == "bowl",
            "fruit-low on bowl raised: \(alerts[0])")
        #expect(
            alerts[0].condition == "below" && alerts[0].threshold == 200 && alerts[0].hysteresis == 50,
            "the rule travels with the report: \(alerts[0])")
        let grams = try #require(alerts[0].grams, "the grams that raised it")
        #expect(grams < 200, "raised under the 200 g threshold: \(grams)")
        for load in [210.0, 190, 240, 160, 249] { try await bench.feed(load) }
        #expect(bench.alerts.count == 1, "210…249 g is inside 200 + 50 g: no flapping: \(bench.alerts)")
        try await bench.feed(350)
        alerts = bench.alerts
        try #require(alerts.count == 2, "cleared once past 250 g: \(alerts)")
        #expect(!alerts[1].active && (alerts[1].grams ?? 0) > 250, "cleared above 250 g: \(alerts[1])")
        #expect(alerts[1].time >= alerts[0].time, "times in order")
    }

    @Test("hold: a dip shorter than the hold raises nothing; a longer one raises after the hold")
    func hold() async throws {
        let bench = try await AlertBench(alert: "below = 200\nhold = 1")
        try await bench.feed(300)
        try await bench.feed(100, count: 40)  // 0.5 s
        try await bench.feed(300)
        #expect(bench.alerts.isEmpty, "a half-second dip is shorter than the 1 s hold: \(bench.alerts)")
        try await bench.feed(100, count: 60)  // 0.75 s, counted from the filtered weight crossing 200 g
        #expect(bench.alerts.isEmpty, "0.75 s under 200 g is shorter than the hold: \(bench.alerts)")
        try await bench.feed(100, count: 40)
        #expect(bench.alerts.map(\.active) == [true], "raised once it held for a second: \(bench.alerts)")
    }

    @Test("an overload is not a valid reading: the alert stays as it was")
    func overloadKeepsState() async throws {
        let bench = try await AlertBench(alert: "above = 300\nhysteresis = 10")
        try await bench.feed(350)
        try await bench.feed(500)  // beyond the 385 g capacity
        try await bench.feed(350)
        #expect(bench.alerts.map(\.active) == [true], "raised at 350 g and kept through the overload: \(bench.alerts)")
    }

    @Test("a new watcher gets every rule's current state on its sensors, active or not")
    func currentState() async throws {
        let bench = try await AlertBench(alert: "below = 200")
        let before = await bench.station.alertReports(sensors: [])
        #expect(
            before.map(\.line).allSatisfy { $0.contains(#""active":false"#) && $0.contains(#""grams":null"#) },
            "before any reading: clear, no grams: \(before.map(\.line))")
        try await bench.feed(100)
        let after = await bench.station.alertReports(sensors: ["bowl"])
        guard case .alert(let alert)? = after.first else {
            Issue.record("no ALERT for a watcher of bowl: \(after)")
            return
        }
        #expect(alert.active && alert == bench.alerts.last, "the state sent last: \(alert)")
        #expect(await bench.station.alertReports(sensors: ["other"]).isEmpty, "no alert is on the other pan")
    }

    @Test("cue = true pulses the cue line when the alert is raised, not when it clears")
    func cuePulse() async throws {
        let bench = try await AlertBench(alert: "below = 200\ncue = true")
        let line = RecordingLine()
        let pulser = CuePulser(line: line, pulse: .milliseconds(20), logger: Logger(label: "test"))
        let running = Task { await pulser.run() }
        await bench.station.attachCueOutput(pulser)
        try await bench.feed(300)
        try await bench.feed(100)
        try await waitFor("one pulse for the raised alert", describe: { "\(pulser.counts)" }) {
            pulser.counts.pulses == 1
        }
        try await bench.feed(300)
        #expect(bench.alerts.map(\.active) == [true, false], "raised and cleared: \(bench.alerts)")
        pulser.finish()
        await running.value
        #expect(pulser.counts.pulses + pulser.counts.coalesced == 1, "one cue only, for the raise: \(pulser.counts)")
        #expect(line.levels.prefix(2) == [true, false], "the line pulsed: \(line.levels)")
    }
}

import Foundation
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

/// A station over `directory` with one calibrated simulated pan, "bowl" (385 g, d = 0.1 g), and
/// the `[[alert]]` "fruit-low" with `alert`'s keys.
struct SettingsBench {
    let station: Station
    let publisher = RecordingPublisher()
    /// Kept for the bench's life: the station saves zero and tare into it.
    let directory: TemporaryDirectory
    private let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
    private let time = SampleClock()
    private let codes = NoiselessCodes()

    init(_ directory: TemporaryDirectory, alert: String = "below = 200\nhysteresis = 20", scale: String = "")
        async throws
    {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            initial_zero = false
            \(scale)
            [[sensor]]
            name = "bowl"
            kind = "simulated-hx711"
            rate = 80
            [[alert]]
            name = "fruit-low"
            sensor = "bowl"
            \(alert)
            """, file: "settings.toml")
        self.directory = directory
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

    func reply(_ request: Request) async throws -> Report {
        let replies = await station.reply(to: request)
        try #require(replies.count == 1, "one reply to \(request.line): \(replies)")
        return replies[0]
    }

    /// The rule's ALERT in the reply to `request`.
    func alert(_ request: Request) async throws -> AlertReport {
        let reply = try await reply(request)
        guard case .alert(let alert) = reply else { throw FixtureError("not an ALERT: \(reply)") }
        return alert
    }

    func command(_ request: Request) async throws -> CommandReply {
        let reply = try await reply(request)
        guard case .command(let command) = reply else { throw FixtureError("not a TARE reply: \(reply)") }
        return command
    }

    func library(_ request: TareLibraryRequest) async throws -> TareLibraryReport {
        let reply = try await reply(.tares(request))
        guard case .tares(let library) = reply else { throw FixtureError("not a TARES report: \(reply)") }
        return library
    }

    func error(_ request: Request) async throws -> String {
        let reply = try await reply(request)
        guard case .error(let message) = reply else { throw FixtureError("not refused: \(reply)") }
        return message
    }
}

@Suite("Settings at runtime in the station: alert values and named tares, saved in its state, the file's edits win")
struct StationSettingsTests {
    @Test("a threshold set at runtime is evaluated at once, reported to watchers and kept over a restart")
    func thresholdAtRuntime() async throws {
        let directory = try TemporaryDirectory()
        let bench = try await SettingsBench(directory)
        try await bench.feed(250)
        let raised = try await bench.alert(.setAlert(AlertChange(name: "fruit-low", threshold: 300, hysteresis: 5)))
        #expect(raised.threshold == 300 && raised.hysteresis == 5 && raised.condition == "below")
        try await bench.feed(250)
        let published = bench.publisher.reports.withLock {
            $0.compactMap { if case .alert(let alert) = $0 { alert } else { nil } }
        }
        #expect(
            published.contains { $0.threshold == 300 && !$0.active }
                && published.contains { $0.threshold == 300 && $0.active && ($0.grams ?? 0) < 300 },
            "watchers are told of the new rule, then of 250 g raising it: \(published)")

        let file = try String(contentsOfFile: directory.file(RuntimeSettingsStore.fileName), encoding: .utf8)
        #expect(file.contains("\"threshold\" : 300") && file.contains("plumscale-runtime-settings"), "\(file)")
        let restarted = try await SettingsBench(directory)
        let kept = try await restarted.alert(.setAlert(AlertChange(name: "fruit-low", hysteresis: 5)))
        #expect(kept.threshold == 300, "the runtime threshold is lost over a restart: \(kept)")
    }

    @Test("a runtime value wins over the file until the file's own value for it changes, or it is cleared")
    func whichWins() async throws {
        let directory = try TemporaryDirectory()
        let bench = try await SettingsBench(directory)
        _ = try await bench.alert(.setAlert(AlertChange(name: "fruit-low", threshold: 300, hysteresis: 5)))

        // The file's hysteresis is edited, its threshold is not: the runtime threshold stays, the
        // file's new hysteresis wins over the runtime one.
        let edited = try await SettingsBench(directory, alert: "below = 200\nhysteresis = 30")
        let rules = await edited.station.alertReports(sensors: [])
        guard case .alert(let rule) = try #require(rules.first) else { throw FixtureError("no ALERT: \(rules)") }
        #expect(rule.threshold == 300 && rule.hysteresis == 30, "\(rule)")

        // A reload with the file's threshold changed: the file wins.
        _ = await edited.station.applyAlerts([
            AlertSettings(name: "fruit-low", sensor: "bowl", direction: .below, grams: 180, hysteresisGrams: 30)
        ])
        let reloaded = await edited.station.alertReports(sensors: [])
        guard case .alert(let now) = try #require(reloaded.first) else { throw FixtureError("no ALERT") }
        #expect(now.threshold == 180 && now.hysteresis == 30, "the file's edited threshold must win: \(now)")
        let runtime = await edited.station.runtime
        #expect(runtime.alerts.isEmpty, "values the file overruled are dropped from the state: \(runtime)")

        // Set again, then cleared: the file's values are back.
        _ = try await edited.alert(.setAlert(AlertChange(name: "fruit-low", threshold: 90)))
        let cleared = try await edited.alert(.setAlert(AlertChange(name: "fruit-low", clear: true)))
        #expect(cleared.threshold == 180 && cleared.hysteresis == 30, "\(cleared)")
    }

    @Test("an unknown alert is refused naming the ones there are")
    func unknownAlert() async throws {
        let bench = try await SettingsBench(try TemporaryDirectory())
        let message = try await bench.error(.setAlert(AlertChange(name: "nope", threshold: 3)))
        #expect(message.contains("no alert named \"nope\"") && message.contains("\"fruit-low\""), "\(message)")
    }

    @Test("a preset tare is set whatever is on the pan, rounded to d; one beyond the capacity is refused with why")
    func presetTare() async throws {
        let bench = try await SettingsBench(try TemporaryDirectory())
        try await bench.feed(50)
        let set = try await bench.command(.presetTare(sensor: "bowl", grams: 212.04))
        #expect(set.ok && set.tare == 212.0, "\(set)")
        #expect(await bench.station.tare(of: "bowl") == 212.0)
        let refused = try await bench.command(.presetTare(sensor: "bowl", grams: 500))
        #expect(!refused.ok && refused.reason == "invalidWeight", "\(refused)")
        #expect(refused.message?.contains("between 0 and the capacity") == true, "\(refused)")
        #expect(await bench.station.tare(of: "bowl") == 212.0, "a refused preset leaves the tare as it was")
        let unknown = try await bench.reply(.presetTare(sensor: "plate", grams: 5))
        #expect(unknown == .error(message: "unknown sensor \"plate\"; sensors: \"bowl\""))
    }

    @Test("named tares: saved from the pan's tare or by weight, listed, used as a preset, deleted; kept over a restart")
    func namedTares() async throws {
        let directory = try TemporaryDirectory()
        let bench = try await SettingsBench(directory)
        try await bench.feed(0)
        let none = try await bench.error(.tares(.save(name: "bowl", sensor: "bowl", grams: nil)))
        #expect(none.contains("no tare to save"), "\(none)")

        try await bench.feed(212.5)
        #expect(try await bench.command(.tare(sensor: "bowl")).ok)
        let saved = try await bench.library(.save(name: "bowl", sensor: "bowl", grams: nil))
        #expect(saved.tares == [NamedTare(name: "bowl", grams: 212.5)] && saved.changed == "bowl", "\(saved)")
        let both = try await bench.library(.save(name: "crate 1", sensor: nil, grams: 120))
        #expect(both.tares.map(\.name) == ["bowl", "crate 1"])
        let told = bench.publisher.reports.withLock { $0.filter { if case .tares = $0 { true } else { false } } }
        #expect(told.count == 2, "every change is published for the watchers' lists: \(told)")

        let used = try await bench.command(.useTare(sensor: "bowl", name: "crate 1"))
        #expect(used.ok && used.tare == 120 && used.message == "named tare \"crate 1\"", "\(used)")
        let missing = try await bench.command(.useTare(sensor: "bowl", name: "box"))
        #expect(!missing.ok && missing.reason == "unknownTare" && missing.message?.contains("\"bowl\"") == true)

        let badName = try await bench.error(.tares(.save(name: "a/b", sensor: nil, grams: 3)))
        #expect(badName.contains("not allowed"), "\(badName)")

        let restarted = try await SettingsBench(directory)
        #expect(try await restarted.library(.list).tares.map(\.name) == ["bowl", "crate 1"])
        let left = try await restarted.library(.delete(name: "bowl"))
        #expect(left.tares == [NamedTare(name: "crate 1", grams: 120)] && left.changed == "bowl")
        let gone = try await restarted.error(.tares(.delete(name: "bowl")))
        #expect(gone.contains("no named tare \"bowl\""), "\(gone)")
    }

    @Test(
        "with recognize_containers a saved bowl put on the empty pan is tared by itself; without it, it is weighed",
        arguments: [true, false])
    func recognizedContainer(enabled: Bool) async throws {
        let bench = try await SettingsBench(
            try TemporaryDirectory(), scale: enabled ? "recognize_containers = true" : "")
        _ = try await bench.library(.save(name: "bowl", sensor: nil, grams: 212))
        try await bench.feed(0)
        try await bench.feed(212.1)
        #expect(await bench.station.tare(of: "bowl") == (enabled ? 212 : 0))
        try await bench.feed(412.1)
        #expect(await bench.station.tare(of: "bowl") == (enabled ? 212 : 0), "fruit in the bowl is not judged")
    }
}

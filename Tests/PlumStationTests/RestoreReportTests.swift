import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSensors
import PlumStore
import PlumTestSupport
import Testing

@testable import PlumStation

/// What became of the zero and tare saved before a restart is said in `?DEVICES` (and so in
/// `plumscale status`), not only in the log (issue 25, item 2).
@Suite("The restore of a saved zero and tare in ?DEVICES")
struct RestoreReportTests {
    static let text = """
        [scale]
        warm_up_s = 0.5
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        rate = 80
        """

    let directory: TemporaryDirectory
    let configuration: PlumConfiguration
    let store: CalibrationStore
    private let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
    private let time = SampleClock()
    private let codes = NoiselessCodes()

    init() throws {
        directory = try TemporaryDirectory()
        configuration = try PlumConfiguration.parse(Self.text, file: "restore.toml")
        store = CalibrationStore(directory: directory.path)
        let scale = try SensorEngines.scaleConfiguration(of: configuration)
        let exact = try #require(try SimulatedCalibration.exact(for: configuration.sensors[0], scale: scale))
        try store.save(exact).get()
    }

    /// A station started on the state directory, as plumscaled is at each start.
    func start(_ publisher: RecordingPublisher = RecordingPublisher()) throws -> Station {
        try Station(configuration: configuration, store: store, publisher: publisher)
    }

    func feed(_ station: Station, _ grams: Double, count: Int = 80) async throws {
        let code = try codes.code(grams, driver: driver)
        for _ in 0..<count {
            let now = time.next.add(12_500_000, ordering: .relaxed).newValue
            await station.handle(
                .sample(Sample(raw: code, signal: Double(code), time: MonotonicInstant(nanoseconds: now))), from: "pan")
        }
    }

    func device(_ station: Station) async throws -> DevicesReport.Device {
        let replies = await station.reply(to: .devices)
        guard case .devices(let report) = try #require(replies.first) else {
            throw Refusal(.invalidConfiguration, "no DEVICES reply: \(replies)", hint: "")
        }
        // The report a client gets: encoded once, decoded once, to the same value and bytes.
        let line = Report.devices(report).line
        let decoded = try Report.decode(line.dropLast()[...])
        #expect(decoded == .devices(report) && decoded.line == line, "\(line)")
        return try #require(report.devices.first)
    }

    @Test("a cup tared, then taken off while the daemon was down: pending, then tare-dropped with the reason")
    func cupGone() async throws {
        let before = try start()
        try await feed(before, 0)
        try await feed(before, 12)
        let tared = await before.reply(to: .tare(sensor: "pan"))
        guard case .command(let reply) = tared.first, reply.ok else {
            Issue.record("the cup was not tared: \(tared)")
            return
        }

        let after = try start()
        #expect(try await device(after).restore == "pending")
        try await feed(after, 0)
        let device = try await device(after)
        #expect(device.restore == "tare-dropped")
        #expect(
            device.restoreReason?.hasPrefix("tare 12.0 g dropped: the pan is 12.0 g lighter than the tare") == true,
            "\(String(describing: device.restoreReason))")
    }

    @Test("the cup still there: restored; a third start finds the dropped tare gone from the file")
    func cupKept() async throws {
        let before = try start()
        try await feed(before, 0)
        try await feed(before, 12)
        _ = await before.reply(to: .tare(sensor: "pan"))
        let kept = try start()
        try await feed(kept, 12)
        #expect(try await device(kept).restore == "restored")
        try await feed(kept, 0)
        _ = await kept.reply(to: .tare(sensor: "pan"))  // clears the tare at gross zero: saved
        let third = try start()
        try await feed(third, 0)
        #expect(try await device(third).restore == "restored")
    }

    @Test("a warm-up is reported as state warming-up when the samples start, and ok when it is over")
    func warmUpReported() async throws {
        let publisher = RecordingPublisher()
        let station = try start(publisher)
        try await feed(station, 0, count: 20)  // 0.25 s of the 0.5 s warm-up
        let states = { publisher.reports.withLock { $0.compactMap { if case .state(let s) = $0 { s } else { nil } } } }
        #expect(states().map(\.state) == ["warming-up"], "\(states())")
        #expect(states().first?.reason?.contains("0.5 s") == true)
        try await feed(station, 0, count: 40)
        #expect(states().map(\.state) == ["warming-up", "ok"], "\(states())")
    }
}

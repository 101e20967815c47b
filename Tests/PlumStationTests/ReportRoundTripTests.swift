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

/// Keeps every report the station publishes, in order.
final class RecordingPublisher: ReportPublisher {
    let reports = Mutex<[Report]>([])
    func publishWeight(_ report: WeightReport, frame: BinaryFrame) { reports.withLock { $0.append(.weight(report)) } }
    func publishRaw(_ report: RawReport) { reports.withLock { $0.append(.raw(report)) } }
    func publishEvent(_ report: Report, sensor: String) { reports.withLock { $0.append(report) } }
}

/// Sample times: from now on, 12.5 ms apart.
final class SampleClock: Sendable {
    let next = Atomic(SystemMonotonicClock().now().nanoseconds)
}

/// The chip model's noiseless code per load, worked out once: the model clocks every bit.
final class NoiselessCodes: Sendable {
    private let known = Mutex<[Double: Int32]>([:])

    func code(_ grams: Double, driver: HX711Configuration) throws -> Int32 {
        if let code = known.withLock({ $0[grams] }) { return code }
        let code = try SimulatedHX711<VirtualClock>.noiselessCode(
            grams: grams, driver: driver, chip: HX711Model<VirtualClock>.Configuration())
        known.withLock { $0[grams] = code }
        return code
    }
}

/// A station with a calibrated simulated pan ("left"), an uncalibrated one ("right") and a
/// simulated FSR, fed by hand with the chip model's noiseless codes at 80 SPS.
struct RoundTripBench {
    let station: Station
    let publisher = RecordingPublisher()
    let directory: TemporaryDirectory
    private let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
    private let time = SampleClock()
    private let codes = NoiselessCodes()

    init() async throws {
        directory = try TemporaryDirectory()
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            initial_zero = false
            [cue]
            chip = "gpiochip0"
            line = "GPIO18"
            on_stable = true
            [[sensor]]
            name = "left"
            kind = "simulated-hx711"
            rate = 80
            [[sensor]]
            name = "right"
            kind = "simulated-hx711"
            rate = 80
            [[sensor]]
            name = "fsr"
            kind = "simulated-fsr"
            profile = "fsr402-10k-3v3"
            [[alert]]
            name = "left-low"
            sensor = "left"
            below = 100
            hysteresis = 20
            cue = true
            """, file: "roundtrip.toml")
        station = try Station(
            configuration: configuration, store: CalibrationStore(directory: directory.path), publisher: publisher,
            captureTimeout: .seconds(3))
        let scale = try SensorEngines.scaleConfiguration(of: configuration)
        let exact = try #require(try SimulatedCalibration.exact(for: configuration.sensors[0], scale: scale))
        _ = await station.install(exact, on: "left")
    }

    /// `count` samples of `grams` on `sensor`, 12.5 ms apart.
    func feed(_ grams: Double, count: Int = 40, sensor: String = "left") async throws {
        let code = try codes.code(grams, driver: driver)
        for _ in 0..<count {
            let now = time.next.add(12_500_000, ordering: .relaxed).newValue
            let sample = Sample(raw: code, signal: Double(code), time: MonotonicInstant(nanoseconds: now))
            await station.handle(.sample(sample), from: sensor)
        }
    }

    /// The replies to a calibration step that waits for a stable load, while `grams` is fed.
    func capture(_ step: CalibrationRequest.Step, grams: Double) async throws -> [Report] {
        // The load is on the pan before the step is sent, as a user places it and then presses.
        try await feed(grams)
        let station = self.station
        let request = Request.calibrate(
            CalibrationRequest(sensor: "left", step: step, grams: step == .point ? grams : nil))
        let reply = Task { await station.reply(to: request) }
        // The signal: the step waits for its capture.
        try await waitFor("the \(step) step to wait for its capture", interval: .milliseconds(2)) {
            await station.isCapturing("left")
        }
        try await feed(grams, count: 60)
        return await reply.value
    }
}

@Suite("Every report the station produces round-trips through the protocol's encoder and decoder")
struct ReportRoundTripTests {
    @Test("published and replied reports decode to the values the station made, byte for byte stable")
    func roundTrip() async throws {
        let bench = try await RoundTripBench()
        let station = bench.station
        var replies: [Report] = []

        await station.handle(.state(.ok), from: "left")
        await station.handle(.state(.fault(reason: "DOUT stuck \"high\"")), from: "right")
        replies += await station.reply(to: .session(SessionRequest(action: .start, name: "round \"trip\"")))
        try await bench.feed(0)
        try await bench.feed(152.3)
        try await bench.feed(400)
        try await bench.feed(12, count: 20, sensor: "right")
        try await bench.feed(0)
        replies += await station.reply(to: .session(SessionRequest(action: .show)))
        replies += await station.reply(to: .session(SessionRequest(action: .stop)))
        replies += await station.reply(to: .session(SessionRequest(action: .list)))

        for request: Request in [
            .poll, .devices, .tare(sensor: "left"), .zero(sensor: "left"), .tare(sensor: "nope"),
            .tare(sensor: "right"), .watch(WatchOptions()), .count(CountRequest(sensor: "left", pieces: 4)),
            .check(CheckRequest(sensor: "left", target: 150, minus: 1, plus: 1))
        ] {
            replies += await station.reply(to: request)
        }
        let calibrate = { (step: CalibrationRequest.Step) in
            await station.reply(to: .calibrate(CalibrationRequest(sensor: "left", step: step)))
        }
        replies += await calibrate(.rollback)
        replies += await calibrate(.begin)
        replies += await calibrate(.fit)
        replies += try await bench.capture(.zero, grams: 0)
        replies += try await bench.capture(.point, grams: 200)
        replies += await calibrate(.fit)
        replies += await calibrate(.commit)
        replies += await calibrate(.begin)
        replies += try await bench.capture(.zero, grams: 0)
        replies += try await bench.capture(.point, grams: 100)
        replies += await calibrate(.commit)
        replies += await calibrate(.rollback)
        replies += await calibrate(.begin)
        replies += await calibrate(.cancel)
        replies += await calibrate(.begin)
        replies += await calibrate(.zero)  // nothing fed: expires after the capture timeout
        try await bench.feed(0, count: 4)
        try await bench.feed(0)
        replies += await station.reply(to: .poll)
        replies += await station.alertReports(sensors: [])

        let published = bench.publisher.reports.withLock { $0 }
        let all = published + replies
        // Every reply, state and cue, and every weight or raw batch that differs in kind; of the
        // hundreds of ordinary ones, every tenth (decoding all would starve the tests beside it).
        let checked = all.enumerated().filter { index, report in
            switch report {
            case .weight(let weight):
                weight.grams == nil || weight.overload || weight.underload || weight.tare != 0 || index % 10 == 0
                    || (weight.flow ?? 0) != 0
            case .raw: index % 10 == 0
            default: true
            }
        }.map(\.element)
        for report in checked {
            let line = report.line
            #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"), "one line per report: \(line)")
            let decoded = try Report.decode(line.dropLast()[...])
            #expect(decoded == report, "\(line) decodes to \(decoded), not to what the station made")
            #expect(decoded.line == line, "re-encoding the decoded report changes its bytes: \(line)")
        }

        // The run must have produced every class the station can send, and each variant of it.
        let classes = Set(all.map { String($0.line.dropFirst(10).prefix { $0 != "\"" }) })
        #expect(
            classes == [
                "WEIGHT", "RAW", "STATE", "CUE", "POLL", "DEVICES", "TARE", "ZERO", "CALIBRATE", "ERROR",
                "ALERT", "ITEM", "SESSION", "COUNT", "CHECK"
            ],
            "classes produced: \(classes.sorted())")
        let cues = Set(all.compactMap { if case .cue(let cue) = $0 { cue.cue } else { nil } })
        #expect(cues == ["max-force", "stable-weight"], "both cues: \(cues)")
        let alerts = Set(all.compactMap { if case .alert(let alert) = $0 { alert.active } else { nil } })
        #expect(alerts == [true, false], "the alert both raised and cleared: \(alerts)")
        let devices = all.compactMap { if case .devices(let report) = $0 { report.devices } else { nil } }.flatMap {
            $0
        }
        #expect(
            devices.map(\.profile) == [nil, nil, "fsr402-10k-3v3"], "each device's profile: \(devices.map(\.profile))")
        let weights = all.compactMap { if case .weight(let weight) = $0 { weight } else { nil } }
        #expect(weights.contains { $0.grams == nil && $0.reason != nil }, "an uncalibrated weight, without grams")
        #expect(weights.contains { $0.overload }, "an overloaded weight")
        #expect(weights.contains { ($0.flow ?? 0) > 1 }, "a weight with a flow (the step onto 152.3 g)")
        #expect(weights.contains { $0.calibrated && $0.flow == nil }, "a calibrated weight before a flow window")
        #expect(
            weights.allSatisfy { $0.flow.map { ($0 * 100).rounded() / 100 == $0 } ?? true },
            "every flow on the 0.01 g/s grid")
        let steps = all.compactMap { if case .calibrate(let reply) = $0 { "\(reply.step) \(reply.ok)" } else { nil } }
        let expected = [
            "rollback false", "rollback true", "begin true", "fit false", "fit true", "zero true",
            "point true", "commit true", "cancel true", "zero false"
        ]
        for step in expected {
            #expect(steps.contains(step), "a CALIBRATE \(step) reply; got \(steps)")
        }
        let saved = all.compactMap { if case .calibrate(let reply) = $0 { reply.saved } else { nil } }
        #expect(saved.count == 2, "both commits were saved: \(saved)")
    }

    @Test("a commit that cannot be saved says so with saved null, and decodes to the same value")
    func unsavedCommit() async throws {
        let reply = Report.calibrate(
            CalibrationReply(
                sensor: "left", step: "commit", ok: true, points: 2,
                message: "the calibration is in use but was not saved"))
        #expect(reply.line.contains(#""saved":null"#), "the client must see that nothing was written: \(reply.line)")
        #expect(try Report.decode(reply.line.dropLast()[...]) == reply, "the reply round-trips")
    }
}

import Logging
import PlumClient
import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSimulation
import PlumStore
import PlumTestSupport
import PlumTransport
import Synchronization
import Testing

@testable import PlumScaleDaemon
@testable import PlumStation

/// The daemon's button path as plumscaled composes it (button service → station → hub →
/// socket server), with a modelled push button for the GPIO line and PlumClient's
/// ``ReportStream`` on a real Unix socket as the watcher.
@Suite("A press of the push button reaches watching clients as a BUTTON report", .timeLimit(.minutes(2)))
struct ButtonReportSocketTests {
    static let ms: UInt64 = 1_000_000

    /// A station fed by hand with noiseless 80 SPS samples, served on a socket in `directory`.
    struct Served {
        let directory: TemporaryDirectory
        let station: Station
        let server: SocketServer
        let button: ButtonSettings
        private let clock = SampleTimes()
        var socketPath: String { directory.path + "/plumscale.sock" }

        init() async throws {
            directory = try TemporaryDirectory()
            let configuration = try PlumConfiguration.parse(
                """
                [scale]
                initial_zero = false
                [[sensor]]
                name = "pan"
                kind = "simulated-hx711"
                rate = 80
                cell_capacity_grams = 1000
                [[button]]
                chip = "gpiochip0"
                line = 27
                sensors = ["pan"]
                """, file: "button.toml")
            button = try #require(configuration.buttons.first)
            let hub = ClientHub(configuration: .init(queueCapacity: 512))
            station = try Station(
                configuration: configuration, store: CalibrationStore(directory: directory.path), publisher: hub)
            await Daemon.installSimulatedCalibrations(configuration, station: station, logger: quietLogger)
            server = SocketServer(
                hub: hub, requestHandler: StationRequestHandler(station: station),
                endpoints: [.unixSocket(path: directory.path + "/plumscale.sock")], logger: quietLogger)
            try await server.start()
        }

        /// `count` samples of `grams`, 12.5 ms apart.
        func feed(_ grams: Double, count: Int = 40) async throws {
            var chip = HX711Model<VirtualClock>.Configuration()
            chip.loadCell.capacityGrams = 1000
            let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
            let code = try SimulatedHX711<VirtualClock>.noiselessCode(grams: grams, driver: driver, chip: chip)
            for _ in 0..<count {
                let time = clock.next.add(12_500_000, ordering: .relaxed).newValue
                let sample = Sample(raw: code, signal: Double(code), time: MonotonicInstant(nanoseconds: time))
                await station.handle(.sample(sample), from: "pan")
            }
        }
    }

    /// Sample times: from now on, 12.5 ms apart.
    final class SampleTimes: Sendable {
        let next = Atomic(SystemMonotonicClock().now().nanoseconds)
    }

    /// What a watching client has read, decoded by PlumClient.
    final class Watched: Sendable {
        let watching = Atomic(false)
        let presses = Mutex<[ButtonReport]>([])
    }

    static func ago(_ milliseconds: UInt64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now().nanoseconds - milliseconds * ms)
    }

    static func fromNow(_ milliseconds: UInt64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now().nanoseconds + milliseconds * ms)
    }

    @Test("long press zeroes 3 g, short press tares 100 g, a long press under 103 g is refused; each said once")
    func pressesReachTheWatcher() async throws {
        let served = try await Served()
        let watched = Watched()
        let socketPath = served.socketPath
        let reading = Task {
            for try await report in ReportStream(watching: WatchOptions(), socketPath: socketPath) {
                switch report {
                case .watch: watched.watching.store(true, ordering: .releasing)
                case .button(let press): watched.presses.withLock { $0.append(press) }
                default: break
                }
            }
        }
        let button = SimulatedButton()
        let service = ButtonService(
            served.button, line: button, name: "button on the model", station: served.station, logger: quietLogger)
        service.watcher.start()
        defer {
            service.watcher.stop()
            reading.cancel()
        }
        try await waitFor("the client to watch and the button watcher to start") {
            watched.watching.load(ordering: .acquiring) && service.watcher.isWatching
        }
        @Sendable func presses() -> [ButtonReport] { watched.presses.withLock { $0 } }
        /// Feeds `grams` until the watcher has read `count` BUTTON reports.
        func feedUntil(_ count: Int, _ grams: Double) async throws {
            try await waitFor("BUTTON report \(count)", describe: { "\(presses())" }) {
                try await served.feed(grams, count: 2)
                return presses().count >= count
            }
        }

        try await served.feed(3)
        button.press(at: Self.ago(1_500))  // held 1.5 s by now: long, reported while still held
        try await feedUntil(1, 3)
        button.release()
        try await served.feed(103)
        // Press and release queued at once: a watcher between two calls would see a long press.
        let start = Self.fromNow(100)
        button.press(at: start, releasedAt: MonotonicInstant(nanoseconds: start.nanoseconds + 200_000_000))
        try await feedUntil(2, 103)
        button.press(at: Self.fromNow(400))  // a long press once the watcher's clock is 1 s past it
        try await feedUntil(3, 103)
        button.release()

        let seen = presses()
        try #require(seen.count == 3, "three presses, three reports: \(seen)")
        let (zero, tare, refused) = (seen[0], seen[1], seen[2])
        #expect(
            zero.sensor == "pan" && zero.gesture == "long" && zero.action == "zero" && zero.ok && zero.reason == nil,
            "the long press: \(zero)")
        #expect(abs((zero.offset ?? 99) - 3) < 0.05, "zeroed the 3 g on the pan: \(zero)")
        #expect(
            tare.gesture == "short" && tare.action == "tare" && tare.ok && abs((tare.tare ?? 0) - 100) < 0.05,
            "the short press tared 103 g less the 3 g zero: \(tare)")
        #expect(tare.message.hasPrefix("tare done: 100"), "tare message: \(tare.message)")
        #expect(
            refused.gesture == "long" && !refused.ok && refused.reason == "outsideZeroRange" && refused.offset == nil,
            "zero of 103 g is refused: \(refused)")
        #expect(
            refused.message.hasPrefix("zero refused: load is 103")
                && refused.message.ranges(of: "refused").count == 1,
            "the reason in words, said once: \(refused.message)")
        let now = UTCTimestamp.epochSeconds()
        #expect(seen.allSatisfy { $0.time <= now && $0.time > now - 60 }, "report times: \(seen.map(\.time))")
        await served.server.shutdown()
    }
}

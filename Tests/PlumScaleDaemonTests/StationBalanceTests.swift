import Logging
import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSimulation
import PlumStore
import PlumTestSupport
import PlumTransport
import Testing

@testable import PlumScaleDaemon
@testable import PlumStation

/// Reports go nowhere: these tests look at MT-SICS responses only.
struct DiscardingPublisher: ReportPublisher {
    func publishWeight(_ report: WeightReport, frame: BinaryFrame) {}
    func publishRaw(_ report: RawReport) {}
    func publishEvent(_ report: Report, sensor: String) {}
}

/// A station with one simulated pan, fed by hand with noiseless samples of chosen loads at
/// 80 SPS, and the MT-SICS balance on it.
struct BalanceBench {
    let station: Station
    let balance: StationBalance
    let directory: TemporaryDirectory
    private let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
    private let clock = SampleClock()

    /// Sample times start now and advance 12.5 ms per sample, so 300 ms of equal samples are stable.
    final class SampleClock: @unchecked Sendable {
        // @unchecked Sendable: a test feeds samples from one task at a time.
        var next = SystemMonotonicClock().now().nanoseconds
    }

    init(calibrated: Bool = true, stableTimeout: Duration = .seconds(10)) async throws {
        directory = try TemporaryDirectory()
        let configuration = try PlumConfiguration.parse(
            // No initial zero-setting: each test decides where zero is.
            "[scale]\ninitial_zero = false\n[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\nrate = "
                + "80\ncell_capacity_grams = 1000\n",
            file: "bench.toml")
        station = try Station(
            configuration: configuration, store: CalibrationStore(directory: directory.path),
            publisher: DiscardingPublisher())
        if calibrated {
            await Daemon.installSimulatedCalibrations(configuration, station: station, logger: quietLogger)
        }
        balance = StationBalance(
            station: station, sensor: "pan", division: try Division(grams: 0.1), capacityGrams: 385,
            stableTimeout: stableTimeout)
    }

    /// `count` samples of `grams` each (alternating with `alternate` when given: a moving load).
    func feed(_ grams: Double, count: Int = 40, alternate: Double? = nil) async throws {
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.loadCell.capacityGrams = 1000
        for index in 0..<count {
            let load = index.isMultiple(of: 2) ? grams : (alternate ?? grams)
            let code = try SimulatedHX711<VirtualClock>.noiselessCode(grams: load, driver: driver, chip: chip)
            await station.handle(
                .sample(Sample(raw: code, signal: Double(code), time: MonotonicInstant(nanoseconds: clock.next))),
                from: "pan")
            clock.next += 12_500_000
        }
    }

    /// Returns once a request waits for the next reading, as SI does after a tare.
    func waitForNextReading() async throws {
        let station = self.station
        try await waitFor("SI to wait for the next reading", interval: .milliseconds(1)) {
            await station.waits.isWaitingForNext
        }
    }

    /// Starts `command` and returns once it waits for a stable reading.
    func startWaiting(_ command: MTSICSCommand) async throws -> Task<String, Never> {
        let balance = self.balance
        let task = Task { await balance.respond(to: command, from: ClientInfo(id: 1, listener: "test")) }
        let station = self.station
        try await waitFor("\(command) to wait for a stable reading", interval: .milliseconds(1)) {
            await station.waits.isWaitingForStable
        }
        return task
    }

    func respond(_ command: MTSICSCommand) async -> String {
        await balance.respond(to: command, from: ClientInfo(id: 1, listener: "test"))
    }
}

@Suite("The station as an MT-SICS balance")
struct StationBalanceTests {
    @Test("S waits for the first stable reading and sends it right-aligned with the division's decimals")
    func stableWeightWaits() async throws {
        let bench = try await BalanceBench()
        let answer = try await bench.startWaiting(.stableWeight)
        try await bench.feed(100)
        #expect(await answer.value == "S S      100.0 g\r\n")
    }

    @Test("SI sends a moving weight as S D, and S gives up with S I when nothing is stable in time")
    func movingLoad() async throws {
        let bench = try await BalanceBench(stableTimeout: .milliseconds(200))
        try await bench.feed(50, count: 9, alternate: 60)
        #expect(await bench.respond(.immediateWeight).hasPrefix("S D "))
        #expect(await bench.respond(.stableWeight) == "S I\r\n")
    }

    @Test("Z and T wait for stable, then zero and tare in that reading's turn; SI then shows the new net at once")
    func zeroAndTareWhenStable() async throws {
        let bench = try await BalanceBench()
        let zero = try await bench.startWaiting(.zero)
        try await bench.feed(5)
        #expect(await zero.value == "Z A\r\n")
        try await bench.feed(30)
        #expect(await bench.respond(.tare) == "T S       25.0 g\r\n", "the tare is the load above the new zero")
        #expect(await bench.respond(.tareQuery) == "TA A       25.0 g\r\n")
        let net = Task { await bench.respond(.immediateWeight) }
        try await bench.waitForNextReading()
        try await bench.feed(30, count: 1)
        #expect(await net.value == "S S        0.0 g\r\n", "SI waited for the reading after the tare")
        #expect(await bench.respond(.tareClear) == "TAC A\r\n")
    }

    @Test("cancelling a waiting Z (as @ does) leaves zero alone when the load settles later")
    func cancelledZeroNeverRuns() async throws {
        let bench = try await BalanceBench()
        let zero = try await bench.startWaiting(.zero)
        zero.cancel()
        let station = bench.station
        try await waitFor("the cancelled Z to stop waiting", interval: .milliseconds(1)) {
            await !station.waits.isWaitingForStable
        }
        try await bench.feed(5)
        #expect(await bench.station.entry("pan")?.engine.zeroOffset == 0)
    }

    @Test("outside the zero range Z answers + above and - below; overload and underload answer S + and S -")
    func ranges() async throws {
        let bench = try await BalanceBench()
        try await bench.feed(100)
        #expect(await bench.respond(.zero) == "Z +\r\n")
        #expect(await bench.respond(.zeroImmediately) == "ZI +\r\n")
        try await bench.feed(-30)
        #expect(await bench.respond(.zero) == "Z -\r\n")
        #expect(await bench.respond(.immediateWeight) == "S -\r\n")
        #expect(await bench.respond(.tare) == "T -\r\n")
        try await bench.feed(500)
        #expect(await bench.respond(.stableWeight) == "S +\r\n")
        #expect(await bench.respond(.tare) == "T +\r\n")
    }

    @Test("ZI and TI act on a moving load at once and say D")
    func immediateForms() async throws {
        let bench = try await BalanceBench()
        try await bench.feed(3, count: 9, alternate: 5)
        #expect(await bench.respond(.zeroImmediately) == "ZI D\r\n")
        try await bench.feed(40, count: 9, alternate: 44)
        #expect(await bench.respond(.tareImmediately).hasPrefix("TI D "))
        #expect(await bench.respond(.tareClear) == "TAC A\r\n")
    }

    @Test("a preset tare is answered with its value; one beyond the capacity is TA L")
    func presetTare() async throws {
        let bench = try await BalanceBench()
        try await bench.feed(100)
        #expect(await bench.respond(.tarePreset(grams: 12.34)) == "TA A       12.3 g\r\n")
        let net = Task { await bench.respond(.immediateWeight) }
        try await bench.waitForNextReading()
        try await bench.feed(100, count: 1)
        #expect(await net.value == "S S       87.7 g\r\n")
        #expect(await bench.respond(.tarePreset(grams: 400)) == "TA L\r\n")
        #expect(await bench.respond(.tarePreset(grams: -1)) == "TA L\r\n")
    }

    @Test("an uncalibrated sensor has no grams: SI, S, Z and T answer EL")
    func uncalibrated() async throws {
        let bench = try await BalanceBench(calibrated: false, stableTimeout: .milliseconds(200))
        try await bench.feed(100)
        for command in [MTSICSCommand.immediateWeight, .stableWeight, .zero, .tare] {
            #expect(await bench.respond(command) == "EL\r\n", "\(command)")
        }
    }

    @Test("SI before the first sample is S I; the inquiries answer in MT-SICS's quoted forms")
    func beforeFirstSample() async throws {
        let bench = try await BalanceBench()
        #expect(await bench.respond(.immediateWeight) == "S I\r\n")
        #expect(await bench.respond(.inquiry(1)) == "I1 A \"01\" \"1.00\" \"1.00\" \"\" \"\"\r\n")
        #expect(await bench.respond(.inquiry(2)) == "I2 A \"PlumScale 385.0 g\"\r\n")
        #expect(await bench.respond(.inquiry(3)) == "I3 A \"\(DaemonVersion.release)\"\r\n")
        #expect(await bench.respond(.reset) == "I4 A \"PLUM0001\"\r\n")
    }
}

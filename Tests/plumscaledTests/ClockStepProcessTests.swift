import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// libfaketime's thread-safe library, wherever the architecture puts it.
enum FakeTime {
    static let library: String? = {
        let root = "/usr/lib"
        let triplets = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return triplets.map { "\(root)/\($0)/faketime/libfaketimeMT.so.1" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }()
}

/// A Pi has no real-time clock: it boots with the time its fake-hwclock saved, maybe years old,
/// and NTP sets it later, forwards by years or by an hour either way. A real plumscaled runs here
/// under libfaketime, which steps the wall clock of that one process (`CLOCK_REALTIME`, `time`)
/// and leaves its monotonic clock alone, as a clock step does. Every interval of the daemon
/// (stability, alert holds, uptime) must run on the monotonic clock; only the times it reports
/// follow the wall clock (docs/RELIABILITY.md, "Wall-clock steps").
@Suite(
    "A real plumscaled whose wall clock steps", .tags(.process), .timeLimit(.minutes(3)), .ownThreads,
    .enabled(if: FakeTime.library != nil, "needs libfaketime (apt install libfaketime)"))
struct ClockStepProcessTests {
    /// Seconds to the clock of a Pi whose fake-hwclock last saved in 2020.
    static let yearsBehind = -190_000_000

    static func configuration(_ directory: TemporaryDirectory) -> String {
        """
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        seed = 5
        rate = 80
        load_file = "\(directory.file("pan.grams"))"

        [[alert]]
        sensor = "pan"
        name = "fruit-low"
        below = 200
        hold = 2
        """
    }

    static func stableWeight(_ client: DaemonClient, _ what: String) throws -> WeightReport {
        try client.nextReport(within: .seconds(20), what) { report in
            if case .weight(let weight) = report, weight.stable, weight.grams != nil { weight } else { nil }
        }
    }

    static func daemonStatus(_ daemon: DaemonFixture) throws -> DevicesReport {
        try daemon.client().devicesReport()
    }

    static func seconds(_ iso: String?) -> Double? {
        iso.flatMap { try? Date($0, strategy: .iso8601) }?.timeIntervalSince1970
    }

    /// A plumscaled with 300 g on its pan, under libfaketime with the wall clock `offset` seconds
    /// off (the file `offset` in `directory`, which a test rewrites to step it), read again after
    /// `cache` ("0": at every clock call).
    static func daemon(in directory: TemporaryDirectory, offset: String, cache: String) async throws -> DaemonFixture {
        let library = try #require(FakeTime.library)
        try directory.write("pan.grams", "300\n")
        try directory.write("offset", "\(offset)\n")
        // FAKETIME_SHARED names the shared memory libfaketime would otherwise make and announce
        // with setenv(3) as it loads; a setenv that early left the Swift runtime without its
        // arguments (CommandLine.arguments was empty, so plumscaled looked for /etc/plumscale).
        // Without that memory it counts no calls, which nothing here uses.
        var environment = [
            "LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": directory.file("offset"),
            "DONT_FAKE_MONOTONIC": "1", "FAKETIME_SHARED": "/plumscale_sem_none /plumscale_shm_none"
        ]
        environment[cache == "0" ? "FAKETIME_NO_CACHE" : "FAKETIME_CACHE_DURATION"] = cache == "0" ? "1" : cache
        let variables = environment
        return try await offPool {
            try DaemonFixture(
                configuration: Self.configuration(directory), environment: variables, directory: directory)
        }
    }

    @Test("set from 2020 to now, then back an hour: readings stay stable, the start is told right, a held alert fires")
    func stepsForwardAndBack() async throws {
        let directory = try TemporaryDirectory(prefix: "plumclock")
        // The offset is read from the file at every clock call.
        let daemon = try await Self.daemon(in: directory, offset: "\(Self.yearsBehind)", cache: "0")
        try await offPool {
            let client = try daemon.client()
            _ = try client.watch()
            let early = try Self.stableWeight(client, "a stable reading on the clock of 2020")
            let now = Date().timeIntervalSince1970
            #expect(
                abs(early.time - (now + Double(Self.yearsBehind))) < 60,
                "the daemon's clock is not the one libfaketime set, so this test would prove nothing: \(early.time)")
            let before = try Self.daemonStatus(daemon)
            #expect((Self.seconds(before.daemon?.started) ?? now) < now - 86_400 * 365, "started in 2020")

            // NTP sets the clock: six years forwards.
            try directory.write("offset", "+0\n")
            let set = try client.nextReport(within: .seconds(20), "a reading on the clock set right") { report in
                if case .weight(let weight) = report, weight.time > now - 60 { weight } else { nil }
            }
            #expect(set.stable, "the pan that was stable is still stable after the clock moved six years")
            #expect(
                abs((set.grams ?? 0) - (early.grams ?? 0)) <= 0.2,
                "the same weight: \(set.display) after \(early.display)")
            let after = try Self.daemonStatus(daemon)
            let uptime = try #require(after.uptime)
            let started = try #require(Self.seconds(after.daemon?.started), "DEVICES tells the start")
            #expect(
                abs(started - (Date().timeIntervalSince1970 - uptime)) < 5,
                "the start is told on the clock as it is now, not as it was: \(after.daemon?.started ?? "")")
            #expect(uptime < 600, "the uptime stayed on the monotonic clock: \(uptime) s")

            // The load falls below the alert's threshold, and the clock steps back an hour
            // while the alert's 2 s hold runs: the hold must not wait for the hour to come back.
            try directory.write("pan.grams", "150\n")
            try directory.write("offset", "-3600\n")
            let alert = try client.nextReport(within: .seconds(20), "fruit-low raised after its hold") { report in
                if case .alert(let alert) = report, alert.name == "fruit-low", alert.active { alert } else { nil }
            }
            #expect(
                abs(alert.time - (Date().timeIntervalSince1970 - 3600)) < 60,
                "the alert's time follows the stepped clock: \(alert.time)")
        }
        #expect(try await offPool { daemon.terminate() } == 0)
    }
    /// libfaketime 0.9.10 answers EINVAL to every `clock_nanosleep(CLOCK_MONOTONIC,
    /// TIMER_ABSTIME)`; the daemon's waits then returned at once and its chip models and samplers
    /// spun: under the soak's libfaketime plumscaled took 1.6 cores for two simulated pans, 2.7 %
    /// of one without it, and the load starved the rest of the stack. Its sleeps now fall back to
    /// relative ones.
    @Test(
        "under libfaketime, whose absolute sleeps all fail, the daemon still sleeps: well under half a core for a pan at 80 SPS"
    )
    func sleepsUnderFakeTime() async throws {
        // As the soak runs its programs: the offset read once a second.
        let daemon = try await Self.daemon(in: try TemporaryDirectory(prefix: "plumsleep"), offset: "+0", cache: "1")
        try await offPool {
            let client = try daemon.client()
            _ = try client.watch()
            _ = try Self.stableWeight(client, "a stable reading under libfaketime")
            let figures = ProcessFigures(pid: daemon.pid)
            let clock = ContinuousClock()
            let start = clock.now
            let cpuBefore = figures.cpuSeconds
            // 240 readings: three seconds of the pan's 80 a second, however slow this machine is.
            for index in 0..<240 {
                _ = try client.nextReport(within: .seconds(10), "reading \(index + 1) of 240") { report in
                    if case .weight(let weight) = report { weight } else { nil }
                }
            }
            let cpu = figures.cpuSeconds - cpuBefore
            let elapsed = clock.now - start
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            #expect(
                cpu / wall < 0.5,
                "plumscaled used \(cpu) s of CPU in \(wall) s: its sleeps return at once and it spins")
        }
        #expect(try await offPool { daemon.terminate() } == 0)
    }
}

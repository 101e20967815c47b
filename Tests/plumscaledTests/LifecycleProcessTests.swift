import PlumClient
import PlumCore
import PlumProtocol
import PlumStore
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscaled` as systemd runs it: socket activation, reload on SIGHUP, stop on SIGTERM, and
/// clients that do not keep up.
@Suite("plumscaled's life as a service, as a child process", .tags(.process), .timeLimit(.minutes(5)), .ownThreads)
struct LifecycleProcessTests {
    static let socketActivate = "/usr/bin/systemd-socket-activate"

    @Test(
        "under systemd-socket-activate the daemon adopts the socket it is passed, greets and weighs on it, and binds no path of its own",
        .enabled(
            if: access(socketActivate, X_OK) == 0,
            "needs systemd-socket-activate (Debian's systemd package; CI installs it)"))
    func socketActivation() async throws {
        // systemd-socket-activate listens, and on the first connection execs the daemon with
        // LISTEN_FDS=1, LISTEN_PID and LISTEN_FDNAMES=json, as plumscaled.socket would. The
        // daemon's own --socket (the fixture's) must stay unbound.
        let directory = try TemporaryDirectory(prefix: "plumact")
        let socket = directory.file("activated.sock")
        let daemon = try DaemonFixture(
            command: [Self.socketActivate, "--listen=\(socket)", "--fdname=json"], directory: directory,
            waitForSocket: false)
        let weight: WeightReport
        do {
            weight = try await offPool { () -> WeightReport in
                // Listening, not just bound: the file appears at bind(2), and a connection made
                // before listen(2) is refused.
                try waitUntil("systemd-socket-activate to listen on \(socket)") { Self.isListening(socket) }
                let client = try DaemonClient(socketPath: socket, timeout: .seconds(30))
                #expect(client.version.protoMajor == 1, "greeting \(client.version)")
                try client.watch()
                return try client.nextWeight(within: .seconds(30))
            }
        } catch {
            Issue.record("\(error); the daemon's log: \(daemon.log)")
            return
        }
        #expect(weight.calibrated, "readings arrive on the passed socket: \(weight)")
        #expect(access(daemon.socketPath, F_OK) != 0, "with a socket passed, the daemon binds nothing itself")
        let status = try await offPool { daemon.terminate() }
        #expect(status == 0, "log: \(daemon.log)")
        #expect(access(socket, F_OK) == 0, "the socket is systemd's: the daemon leaves its path alone")
    }

    /// Whether a Unix socket is listening at `path`: its line in /proc/net/unix (unix(7)) has
    /// the flag `__SO_ACCEPTCON` (0x10000), which `listen(2)` sets.
    static func isListening(_ path: String) -> Bool {
        readFile("/proc/net/unix").split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 8 && fields[7] == path && fields[3] == "00010000"
        }
    }

    @Test("SIGHUP makes the daemon re-read the calibrations in its state directory, as after a restore by hand")
    func reloadOnSIGHUP() async throws {
        let scale = try await ScaleFixture.start([("left", 0)])
        let before = await scale.plumscale(["status"])
        #expect(before.stdout.contains("calibrated   simulated chip"), "\(before.stdout)")

        // A calibration put in place by hand, as an administrator restoring a backup would.
        let fit = try CalibrationFit.fit(
            points: [
                CalibrationPoint(grams: 0, signal: 42_000, noise: 20, samples: 24),
                CalibrationPoint(grams: 200, signal: 472_000, noise: 20, samples: 24)
            ],
            sensor: SensorIdentity(id: "left", model: "simulated-hx711", gain: 128), kind: .loadCell,
            configuration: ScaleConfiguration(), createdAt: "2026-01-02T03:04:05Z"
        ).get()
        try CalibrationStore(directory: "\(scale.directory)/state").save(fit).get()
        try await scale.reload()
        let after = await scale.plumscale(["status"]).stdout
        #expect(after.contains("calibrated   2026-01-02T03:04:05Z"), "the restored calibration is in use: \(after)")
        #expect(try await offPool { scale.daemon.terminate() } == 0, "the daemon runs on after the reload")
    }

    @Test(
        "SIGHUP re-reads the configuration: a new [scale] division is used at once, and a file that no longer parses changes nothing"
    )
    func reloadConfiguration() async throws {
        let scale = try await ScaleFixture.start([("left", 50)])
        let config = "\(scale.directory)/plumscale.toml"
        let original = readFile(config)
        func shown() async -> String { await scale.plumscale(["read", "--stable"]).stdout }
        let fine = await shown()
        #expect(fine.contains("."), "0.1 g divisions show a decimal: \(fine)")

        writeFile(config, "[scale]\ndivision_grams = 1\n\n" + original)
        try await scale.reload()
        let coarse = await shown()
        #expect(coarse.contains(" 50 g"), "the 1 g division is in use after SIGHUP: \(coarse)")

        writeFile(config, "[scale]\ndivision_grams = 0.3\n\n" + original)
        try await scale.reload()
        let kept = await shown()
        #expect(kept.contains(" 50 g"), "a file that does not parse leaves the settings in use: \(kept)")
        #expect(try await offPool { scale.daemon.terminate() } == 0, "log: \(scale.daemon.log)")
    }

    @Test("SIGTERM right after a calibration is committed loses nothing: the next start weighs with it")
    func calibrationSurvivesSIGTERM() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        let run = try await scale.run(
            ["calibrate", "--sensor", "left", "--point", "0", "--point", "150", "--yes"],
            placing: [("left: place 150.0 g; waiting", 150)], on: "left")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await offPool { scale.daemon.terminate() } == 0)

        let again = try await offPool {
            let again = try DaemonFixture(
                configuration: readFile("\(scale.directory)/plumscale.toml"), directory: scale.daemon.directory)
            try again.waitForReadings()
            return again
        }
        let status = await scale.plumscale(["status"]).stdout
        #expect(
            status.contains("calibrated   20"),
            "the committed calibration, with its date, is in use after the restart: \(status)")
        #expect(!status.contains("simulated chip"), "\(status)")
        let read = await scale.plumscale(["read", "--stable"])
        #expect(abs(grams(in: read.stdout) - 150) <= 0.2, "\(read.stdout)")
        #expect(try await offPool { again.terminate() } == 0, "log: \(again.log)")
    }

    @Test(
        "a client that never reads loses its oldest reports and is told so, while a watcher beside it gets every raw sample in order"
    )
    func slowClientBesideWatcher() async throws {
        // A short queue, so a client that does not read overflows within seconds; at some 140
        // reports a second, 64 still lets the daemon's event loop be kept from the CPU for
        // 0.4 s by a busy machine before a client that reads loses any (16 allowed 0.1 s, and
        // the watcher was once told of an OVERFLOW on a loaded 2-core machine).
        let scale = try await ScaleFixture.start([("left", 80), ("right", 40)], daemonSettings: "client_queue = 64")
        let stuck = try LineSocket(path: scale.socket, receiveBuffer: 4096)
        let watcher = try LineSocket(path: scale.socket)
        typealias Outcome = (
            times: [String: [Double]], overflow: Bool, stall: Duration, slowLines: [String],
            devices: [DevicesReport.Device]
        )
        let result = try await offPool { () -> Outcome in
            stuck.send(#"?WATCH={"enable":true,"raw":true};"#)
            watcher.send(#"?WATCH={"enable":true,"raw":true};"#)
            var times: [String: [Double]] = [:]
            var overflow = false
            let clock = ContinuousClock()
            let end = clock.now + .seconds(5)
            // The longest time this reader itself went without reading: a test process starved
            // by the machine is a watcher that did not keep up.
            var stall = Duration.zero
            var lastRead = clock.now
            while clock.now < end, let line = watcher.readLine() {
                let now = clock.now
                stall = max(stall, now - lastRead)
                lastRead = now
                if line.hasPrefix(#"{"class":"OVERFLOW""#) { overflow = true }
                guard line.hasPrefix(#"{"class":"RAW""#), let sensor = jsonStringField(line, "sensor") else { continue }
                times[sensor, default: []] += jsonNumbers(line, "times")
            }
            // The stuck client reads only once it must have lost reports, a condition, not a
            // window (on a busy machine 5 s once did not fill its socket): its socket took no more
            // bytes while the watcher beside it was sent 200 reports, more than its queue holds.
            var pending = stuck.pendingBytes
            var sentSince = 0
            let giveUp = clock.now + .seconds(120)
            while sentSince < 200, clock.now < giveUp, let line = watcher.readLine() {
                let now = stuck.pendingBytes
                if now != pending {
                    (pending, sentSince) = (now, 0)
                } else if line.hasPrefix(#"{"class":"RAW""#) || line.hasPrefix(#"{"class":"WEIGHT""#) {
                    sentSince += 1
                }
            }
            // Now read what the stuck client was sent: the oldest were dropped and it is told so.
            var slowLines: [String] = []
            while slowLines.count < 5000, let line = stuck.readLine() {
                slowLines.append(line)
                if line.hasPrefix(#"{"class":"OVERFLOW""#) { break }
            }
            return (times, overflow, stall, slowLines, try scale.daemon.client().devices())
        }
        let watcherOverflowed = result.overflow
        // A watcher that reads at least once a second keeps up: with a default receive buffer
        // the kernel holds seconds of reports before the daemon queues any. Only a test process
        // the machine starved for longer may have been told of an OVERFLOW.
        #expect(
            !watcherOverflowed || result.stall >= .seconds(1),
            "the watcher read at least once every \(result.stall) and was still told of an OVERFLOW")
        for sensor in ["left", "right"] {
            let times = result.times[sensor] ?? []
            // The stream flowed the whole window: a busy machine makes the driver discard more
            // (each one counted, and checked below), so the count of samples alone proves little.
            let periods = ((times.last ?? 0) - (times.first ?? 0)) / 0.0125
            #expect(periods >= 300, "\(sensor): \(times.count) raw samples over \(periods) periods of 5 s at 80 SPS")
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(sensor): raw samples in order, none twice")
            // A conversion every 12.5 ms. One missing from the stream must be one the driver
            // discarded and counted (a clock pulse stretched by the busy machine, and the
            // settling conversions after it; a read-out made late, or conversions the chip
            // overwrote, while the sampler thread was descheduled), never one lost on the way to
            // this client. A sample's time is when its read-out ended, up to three quarters of a
            // period after its conversion (later ones are discarded as late), so one gap can
            // round a period high and the next one low: the gaps are summed as they round,
            // without clipping, so that such pairs cancel.
            // A reset (after a stretched clock or a failed DOUT check) is not a conversion slot
            // lost but time with none: PD_SCK is held high 10 ms and the chip converts one
            // period after it powers up again, under two periods. Each reset discards the four
            // settling conversions after it (the first, at start-up, is before this window).
            let missing = zip(times, times.dropFirst()).map { Int((($1 - $0) / 0.0125).rounded()) - 1 }.reduce(0, +)
            let device = result.devices.first { $0.sensor == sensor }
            let discarded = device?.discarded.values.reduce(0, +) ?? 0
            let reasons = device?.discarded.filter { $0.value > 0 } ?? [:]
            let resets = max(0, ((device?.discarded["settling"] ?? 0) + 3) / 4 - 1)
            // A watcher told of an OVERFLOW lost reports on the way, already reported above.
            guard !watcherOverflowed else { continue }
            #expect(
                missing <= discarded + 2 * resets,
                "\(sensor): \(missing) conversions missing from the stream, \(discarded) discarded: \(reasons)")
        }
        #expect(
            result.slowLines.contains { $0.hasPrefix(#"{"class":"OVERFLOW","dropped":"#) },
            "the stuck client learns how many reports it lost (or was disconnected): \(result.slowLines.suffix(2))")
        #expect(try await offPool { scale.daemon.terminate() } == 0, "log: \(scale.daemon.log)")
    }
}

/// A string field of a flat JSON line.
func jsonStringField(_ line: String, _ key: String) -> String? {
    guard let start = line.firstRange(of: "\"\(key)\":\"")?.upperBound else { return nil }
    return String(line[start...].prefix { $0 != "\"" })
}

/// A number array field of a JSON line, such as "times":[1.5,2.5].
func jsonNumbers(_ line: String, _ key: String) -> [Double] {
    guard let start = line.firstRange(of: "\"\(key)\":[")?.upperBound else { return [] }
    return line[start...].prefix { $0 != "]" }.split(separator: ",").compactMap { Double($0) }
}

@Suite("A sensor that fails, while the daemon runs", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct SensorFaultProcessTests {
    @Test(
        "a pan whose chip stops answering goes to a fault state with the reason, the other pan keeps weighing, and it comes back by itself"
    )
    func faultAndRecovery() async throws {
        let directory = try TemporaryDirectory(prefix: "plumfault")
        let unplug = directory.file("left.unplugged")
        let daemon = try await offPool {
            try DaemonFixture(
                configuration: """
                    [[sensor]]
                    name = "left"
                    kind = "simulated-hx711"
                    load_grams = 50
                    ready_timeout_ms = 300
                    unplug_file = "\(unplug)"

                    [[sensor]]
                    name = "right"
                    kind = "simulated-hx711"
                    load_grams = 30
                    seed = 4
                    """, directory: directory)
        }
        /// Waits until `sensor`'s state in ?DEVICES satisfies `predicate`; returns the device.
        func wait(for sensor: String, _ what: String, until predicate: @escaping @Sendable (String) -> Bool)
            async throws -> DevicesReport.Device
        {
            try await offPool {
                let client = try daemon.client()
                var device: DevicesReport.Device?
                try waitUntil("\(sensor) to be \(what)", describe: { "\(String(describing: device))" }) {
                    device = try client.sensors([sensor]).first
                    return device.map { predicate($0.state) } ?? false
                }
                return device!
            }
        }

        _ = try await wait(for: "left", "ok") { $0 == "ok" }
        writeFile(unplug, "")
        let failed = try await wait(for: "left", "in fault or not ready") { $0 == "fault" || $0 == "not-ready" }
        #expect(
            failed.reason?.contains("DOUT never went low") == true,
            "the reason says what is wrong: \(failed.reason ?? "none")")
        let right = try await offPool { try daemon.client().sensors(["right"])[0] }
        #expect(right.state == "ok", "the other pan is not disturbed: \(right)")
        let rightWeighs = try await offPool { () -> WeightReport in
            let client = try daemon.client()
            try client.watch(WatchOptions(sensors: ["right"]))
            return try client.nextWeight(within: .seconds(20)) { $0.sensor == "right" }
        }
        #expect(rightWeighs.sensor == "right", "right keeps reporting while left is in fault")

        unlink(unplug)
        let recovered = try await wait(for: "left", "ok again") { $0 == "ok" }
        #expect(recovered.state == "ok", "left comes back by itself once its chip answers: \(recovered)")
        #expect(
            try await offPool { daemon.terminate() } == 0, "a sensor fault never stops the daemon; log: \(daemon.log)")
    }
}

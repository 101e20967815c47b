import PlumCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `plumscaled` as systemd runs it: socket activation, reload on SIGHUP, stop on SIGTERM, and
/// clients that do not keep up.
@Suite("plumscaled's life as a service, as a child process")
struct LifecycleProcessTests {
    static let socketActivate = "/usr/bin/systemd-socket-activate"

    @Test(
        "under systemd-socket-activate the daemon adopts the socket it is passed, greets and weighs on it, and binds no path of its own",
        .enabled(if: access(socketActivate, X_OK) == 0, "needs systemd-socket-activate (Debian's systemd package; CI installs it)"))
    func socketActivation() async throws {
        let directory = temporaryDirectory()
        let socket = "\(directory)/activated.sock"
        let own = "\(directory)/own.sock"
        // systemd-socket-activate listens, and on the first connection execs the daemon with
        // LISTEN_FDS=1, LISTEN_PID and LISTEN_FDNAMES=json, as plumscaled.socket would.
        let daemon = try DaemonProcess(command: [
            Self.socketActivate, "--listen=\(socket)", "--fdname=json",
            DaemonProcess.binary, "--simulate", "--socket", own, "--state-directory", "\(directory)/state",
        ], socketPath: socket)
        let client = try await offPool { () -> LineClientBox in
            for _ in 0..<200 where access(socket, F_OK) != 0 { usleep(25_000) }
            return LineClientBox(LineClient(path: socket))
        }
        let connected = try #require(client.value, "could not connect to \(socket)")
        let (greeting, weight) = try await offPool { () -> (String?, String?) in
            let greeting = connected.readLine()
            connected.send(#"?WATCH={"enable":true};"#)
            return (greeting, connected.readUntil { $0.contains(#""class":"WEIGHT""#) })
        }
        #expect(greeting?.hasPrefix(#"{"class":"VERSION""#) == true)
        #expect(weight != nil, "readings arrive on the passed socket")
        #expect(access(own, F_OK) != 0, "with a socket passed, the daemon binds nothing itself")
        let status = try await offPool { daemon.terminate() }
        #expect(status == 0)
        #expect(access(socket, F_OK) == 0, "the socket is systemd's: the daemon leaves its path alone")
    }

    @Test("SIGHUP makes the daemon re-read the calibrations in its state directory, as after a restore by hand")
    func reloadOnSIGHUP() async throws {
        let scale = try await ScaleFixture.start([("left", 0)])
        let before = await scale.plumscale(["status"])
        #expect(before.stdout.contains("calibrated   simulated chip"), "\(before.stdout)")

        // A calibration put in place by hand, as an administrator restoring a backup would.
        let fit = try CalibrationFit.fit(
            points: [CalibrationPoint(grams: 0, signal: 42_000, noise: 20, samples: 24),
                     CalibrationPoint(grams: 200, signal: 472_000, noise: 20, samples: 24)],
            sensor: SensorIdentity(id: "left", model: "simulated-hx711", gain: 128), kind: .loadCell,
            configuration: ScaleConfiguration(), createdAt: "2026-01-02T03:04:05Z").get()
        try CalibrationStore(directory: "\(scale.directory)/state").save(fit).get()
        scale.daemon.send(SIGHUP)

        var after = ""
        for _ in 0..<50 {
            after = await scale.plumscale(["status"]).stdout
            if after.contains("2026-01-02T03:04:05Z") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(after.contains("calibrated   2026-01-02T03:04:05Z"), "the restored calibration is in use: \(after)")
        #expect(try await offPool { scale.daemon.terminate() } == 0, "the daemon runs on after the reload")
    }

    @Test("SIGHUP re-reads the configuration: a new [scale] division is used at once, and a file that no longer parses changes nothing")
    func reloadConfiguration() async throws {
        let scale = try await ScaleFixture.start([("left", 50)])
        let config = "\(scale.directory)/plumscale.toml"
        let original = readFile(config)
        func shown() async throws -> String {
            var line = ""
            for _ in 0..<50 {
                line = await scale.plumscale(["read", "--stable"]).stdout
                if !line.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return line
        }
        #expect(try await shown().contains(".") , "0.1 g divisions show a decimal")

        writeFile(config, "[scale]\ndivision_grams = 1\n\n" + original)
        scale.daemon.send(SIGHUP)
        var coarse = ""
        for _ in 0..<50 {
            coarse = try await shown()
            if coarse.contains(" 50 g") || coarse.contains(" 49 g") || coarse.contains(" 51 g") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(coarse.contains(" 50 g"), "the 1 g division is in use after SIGHUP: \(coarse)")

        writeFile(config, "[scale]\ndivision_grams = 0.3\n\n" + original)
        scale.daemon.send(SIGHUP)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await shown().contains(" 50 g"), "a file that does not parse leaves the settings in use")
        #expect(try await offPool { scale.daemon.terminate() } == 0)
    }

    @Test("SIGTERM right after a calibration is committed loses nothing: the next start weighs with it")
    func calibrationSurvivesSIGTERM() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        let load = "\(scale.directory)/left.grams"
        let placer = Thread {
            usleep(2_000_000)
            writeFile(load, "150\n")
        }
        let run = await scale.plumscale(["calibrate", "--sensor", "left", "--point", "0", "--point", "150", "--yes"])
        placer.join()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await offPool { scale.daemon.terminate() } == 0)

        let again = try DaemonProcess(
            ["--config", "\(scale.directory)/plumscale.toml", "--socket", scale.socket, "--state-directory", "\(scale.directory)/state"],
            socketPath: scale.socket)
        var status = ""
        for _ in 0..<50 {
            status = await scale.plumscale(["status"]).stdout
            if status.contains("left (simulated-hx711): ok") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status.contains("calibrated   20"), "the committed calibration, with its date, is in use after the restart: \(status)")
        #expect(!status.contains("simulated chip"))
        let read = await scale.plumscale(["read", "--stable"])
        #expect(abs(grams(in: read.stdout) - 150) <= 0.2, "\(read.stdout)")
        #expect(try await offPool { again.terminate() } == 0)
    }

    @Test("the discards of one sensor are read from a DEVICES line, all reasons together")
    func discardParsing() {
        let line = #"{"class":"DEVICES","devices":[{"sensor":"left","discarded":{"stretched_clock":2,"integrity":0,"settling":8,"stale":0,"buffer":1},"not_ready":0},{"sensor":"right","discarded":{"stretched_clock":0,"integrity":0,"settling":4,"stale":0,"buffer":0}}]}"#
        #expect(discardedCount(line, sensor: "left") == 11)
        #expect(discardedCount(line, sensor: "right") == 4)
        #expect(discardedCount(line, sensor: "middle") == 0)
    }

    @Test("a client that never reads loses its oldest reports and is told so, while a watcher beside it gets every raw sample in order")
    func slowClientBesideWatcher() async throws {
        // A short queue, so a client that does not read overflows within seconds.
        let scale = try await ScaleFixture.start([("left", 80), ("right", 40)], daemonSettings: "client_queue = 16")
        let (slow, fast) = try await offPool { () -> (LineClientBox, LineClientBox) in
            (LineClientBox(LineClient(path: scale.socket, receiveBuffer: 4096)), LineClientBox(LineClient(path: scale.socket)))
        }
        let stuck = try #require(slow.value), watcher = try #require(fast.value)
        let result = try await offPool { () -> (times: [String: [Double]], overflow: Bool, slowLines: [String], devices: String) in
            stuck.send(#"?WATCH={"enable":true,"raw":true};"#)
            watcher.send(#"?WATCH={"enable":true,"raw":true};"#)
            var times: [String: [Double]] = [:]
            var overflow = false
            let end = Monotonic.now() + 5
            while Monotonic.now() < end, let line = watcher.readLine() {
                if line.hasPrefix(#"{"class":"OVERFLOW""#) { overflow = true }
                guard line.hasPrefix(#"{"class":"RAW""#), let sensor = jsonStringField(line, "sensor") else { continue }
                times[sensor, default: []] += jsonNumbers(line, "times")
            }
            // Now read what the stuck client was sent: the oldest were dropped and it is told so.
            var slowLines: [String] = []
            while slowLines.count < 5000, let line = stuck.readLine() {
                slowLines.append(line)
                if line.hasPrefix(#"{"class":"OVERFLOW""#) { break }
            }
            watcher.send(#"?WATCH={"enable":false};"#)
            watcher.send("?DEVICES;")
            return (times, overflow, slowLines, watcher.readUntil { $0.hasPrefix(#"{"class":"DEVICES""#) } ?? "")
        }
        #expect(!result.overflow, "the watcher that keeps up loses nothing")
        for sensor in ["left", "right"] {
            let times = result.times[sensor] ?? []
            #expect(times.count >= 300, "\(sensor): \(times.count) raw samples in 5 s at 80 SPS")
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(sensor): raw samples in order, none twice")
            // A conversion every 12.5 ms. One missing from the stream must be one the driver
            // discarded and counted (a clock pulse stretched by the busy machine, and the
            // settling conversions after it), never one lost on the way to this client.
            let missing = zip(times, times.dropFirst()).map { max(0, Int((($1 - $0) / 0.0125).rounded()) - 1) }.reduce(0, +)
            let discarded = discardedCount(result.devices, sensor: sensor)
            #expect(missing <= discarded, "\(sensor): \(missing) conversions missing from the stream, \(discarded) discarded by the driver")
        }
        #expect(result.slowLines.contains { $0.hasPrefix(#"{"class":"OVERFLOW","dropped":"#) },
                "the stuck client learns how many reports it lost (or was disconnected): \(result.slowLines.suffix(2))")
        #expect(try await offPool { scale.daemon.terminate() } == 0)
    }
}

/// The samples the driver discarded for `sensor`, all reasons together, from a DEVICES line.
func discardedCount(_ devices: String, sensor: String) -> Int {
    guard let start = devices.firstRange(of: #"{"sensor":"\#(sensor)""#)?.upperBound else { return 0 }
    let rest = devices[start...]
    let device = rest.firstRange(of: #"{"sensor":"#).map { rest[..<$0.lowerBound] } ?? rest
    guard let open = device.firstRange(of: #""discarded":{"#)?.upperBound else { return 0 }
    return device[open...].prefix { $0 != "}" }.split(separator: ",")
        .compactMap { $0.split(separator: ":").last.flatMap { Int($0) } }.reduce(0, +)
}

/// Carries a client across `offPool`: it is used by one thread at a time.
struct LineClientBox: @unchecked Sendable {
    let value: LineClient?
    init(_ value: LineClient?) { self.value = value }
}

extension LineClient: @unchecked Sendable {}
extension DaemonProcess: @unchecked Sendable {}

enum Monotonic {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
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

@Suite("A sensor that fails, while the daemon runs")
struct SensorFaultProcessTests {
    @Test("a pan whose chip stops answering goes to a fault state with the reason, the other pan keeps weighing, and it comes back by itself")
    func faultAndRecovery() async throws {
        let directory = temporaryDirectory()
        let socket = "\(directory)/plumscale.sock"
        let unplug = "\(directory)/left.unplugged"
        writeFile("\(directory)/plumscale.toml", """
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
            """)
        let daemon = try DaemonProcess(
            ["--config", "\(directory)/plumscale.toml", "--socket", socket, "--state-directory", "\(directory)/state"], socketPath: socket)
        let box = try await offPool { LineClientBox(LineClient(path: socket)) }
        let client = try #require(box.value, "plumscaled did not listen on \(socket)")

        /// The state of `sensor` in ?DEVICES, with its reason.
        func state(_ sensor: String) async throws -> (String, String?) {
            try await offPool { () -> StateBox in
                client.send("?DEVICES;")
                guard let line = client.readUntil({ $0.hasPrefix(#"{"class":"DEVICES""#) }),
                      let start = line.firstRange(of: #"{"sensor":"\#(sensor)""#)?.lowerBound else { return StateBox(state: "?", reason: nil) }
                let device = line[start...].prefix { $0 != "}" }
                return StateBox(state: jsonStringField(String(device), "state") ?? "?", reason: jsonStringField(String(device), "reason"))
            }.pair
        }
        func wait(for sensor: String, until predicate: (String) -> Bool) async throws -> (String, String?) {
            var current = ("?", String?.none)
            for _ in 0..<150 {
                current = try await state(sensor)
                if predicate(current.0) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return current
        }

        #expect(try await wait(for: "left") { $0 == "ok" }.0 == "ok")
        writeFile(unplug, "")
        let failed = try await wait(for: "left") { $0 == "fault" || $0 == "not-ready" }
        #expect(failed.0 == "fault" || failed.0 == "not-ready", "left: \(failed)")
        #expect(failed.1?.contains("DOUT never went low") == true, "the reason says what is wrong: \(failed.1 ?? "none")")
        #expect(try await state("right").0 == "ok", "the other pan is not disturbed")
        let rightWeighs = try await offPool { () -> Bool in
            client.send(#"?WATCH={"enable":true,"sensors":["right"]};"#)
            return client.readUntil { $0.contains(#""class":"WEIGHT","sensor":"right""#) } != nil
        }
        #expect(rightWeighs, "right keeps reporting while left is in fault")

        unlink(unplug)
        let recovered = try await wait(for: "left") { $0 == "ok" }
        #expect(recovered.0 == "ok", "left comes back by itself once its chip answers: \(recovered)")
        #expect(try await offPool { daemon.terminate() } == 0, "a sensor fault never stops the daemon")
    }
}

struct StateBox: Sendable {
    var state: String
    var reason: String?
    var pair: (String, String?) { (state, reason) }
}

import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// Zero and tare over a power cut, as a user sees them: a real `plumscaled` is killed with
/// SIGKILL (no shutdown code runs) and started again on the same state directory.
@Suite("Tare kept over a kill -9 of a real plumscaled", .tags(.process), .timeLimit(.minutes(4)), .ownThreads)
struct ZeroTareRestartTests {
    /// The bowl on the pan, in grams: far outside the zero range (±7.7 g), so initial
    /// zero-setting alone can never make it read 0 g.
    static let bowl = 150.0

    /// One simulated pan whose load is whatever `pan.grams` in `directory` holds.
    static func configuration(_ directory: TemporaryDirectory, restoreTare: Bool? = nil, extra: String = "") -> String {
        var scale = "[scale]\n"
        if let restoreTare { scale += "restore_tare = \(restoreTare)\n" }
        return scale + extra + """

            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            seed = 5
            rate = 80
            load_file = "\(directory.file("pan.grams"))"

            """
    }

    /// Puts `grams` on the pan.
    static func place(_ grams: Double, _ directory: TemporaryDirectory) throws {
        try directory.write("pan.grams", "\(grams)\n")
    }

    /// The first stable report from the pan that `matches`, from reports sampled after `after`.
    static func stable(
        _ client: DaemonClient, after: Double = 0, within: Duration = .seconds(30),
        _ matches: @escaping (WeightReport) -> Bool = { _ in true }
    ) throws -> WeightReport {
        try client.nextWeight(within: within) { $0.sensor == "pan" && $0.stable && $0.time > after && matches($0) }
    }

    /// Starts a daemon, lets it settle on an empty pan, places the bowl and tares it.
    static func tareBowl(_ directory: TemporaryDirectory, _ configuration: String) throws -> DaemonFixture {
        try place(0, directory)
        let daemon = try DaemonFixture(configuration: configuration, directory: directory)
        let client = try daemon.client()
        try client.watch()
        _ = try stable(client) { abs(($0.grams ?? .nan)) < 0.5 }
        try place(bowl, directory)
        _ = try stable(client) { abs(($0.grams ?? .nan) - bowl) < 1 }
        var reply: CommandReply?
        try waitUntil(
            "the daemon to tare the bowl", timeout: .seconds(20), interval: .milliseconds(50),
            describe: { "\(String(describing: reply)); log: \(daemon.log)" }
        ) {
            reply = try client.tare(sensor: "pan")
            return reply?.ok == true
        }
        #expect(abs((reply?.tare ?? 0) - bowl) < 1, "the tare is the bowl's weight: \(String(describing: reply))")
        return daemon
    }

    /// Kills `daemon` with SIGKILL and waits until it is gone.
    static func powerCut(_ daemon: DaemonFixture) {
        daemon.send(SIGKILL)
        let status = daemon.waitForExit(timeout: .seconds(20))
        #expect(status == 128 + SIGKILL, "the daemon died of SIGKILL, status \(status)")
    }

    static func zeroTareFiles(_ directory: TemporaryDirectory) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("state"))) ?? []
        return names.filter { $0.contains("zero-tare") }.sorted()
    }

    @Test("a tared bowl reads 0 g net after kill -9 and a restart; stale *.json.tmp are removed; SIGHUP keeps the tare")
    func tareRestored() async throws {
        let directory = try TemporaryDirectory(prefix: "plumtare")
        let configuration = Self.configuration(directory)
        let first = try await offPool { try Self.tareBowl(directory, configuration) }
        #expect(Self.zeroTareFiles(directory).count == 1, "the tare was saved: \(Self.zeroTareFiles(directory))")
        try await offPool { Self.powerCut(first) }

        // What a save cut short by the power cut leaves: never read, removed at start.
        let stale = try directory.write("state/pan-gain128.zero-tare.json.tmp", "{\"format\":\"plumscale-zero")
        try directory.write("state/pan-gain128.json.tmp", "{")
        let second = try await offPool { try DaemonFixture(configuration: configuration, directory: directory) }
        try await offPool {
            let client = try second.client()
            try client.watch()
            let after = try Self.stable(client)
            #expect(abs(after.tare - Self.bowl) < 1, "the bowl's tare is restored: \(after)")
            #expect(abs(after.grams ?? .nan) < 0.3, "the tared bowl reads ~0 g net after the restart: \(after)")
            #expect(!FileManager.default.fileExists(atPath: stale), "the stale temporary file is gone after start")
            #expect(Self.zeroTareFiles(directory) == ["pan-gain128.zero-tare.json"], "\(Self.zeroTareFiles(directory))")
            try waitUntil("the daemon to log the restore", timeout: .seconds(10), describe: { second.log }) {
                second.log.contains("pan: zero and tare restored")
                    && second.log.contains("pan-gain128.json.tmp, pan-gain128.zero-tare.json.tmp")
            }

            // A reload rebuilds the engine with the new [scale]; the tare goes with it.
            try directory.write("plumscale.toml", Self.configuration(directory, extra: "zero_tracking = false\n"))
            second.send(SIGHUP)
            try waitUntil("the daemon to reload", timeout: .seconds(20), describe: { second.log }) {
                second.log.contains("[scale] applied")
            }
            let reloaded = try Self.stable(client, after: Date().timeIntervalSince1970)
            #expect(abs(reloaded.tare - Self.bowl) < 1, "the tare survives a reload: \(reloaded)")
            #expect(abs(reloaded.grams ?? .nan) < 0.3, "the bowl still reads ~0 g net after a reload: \(reloaded)")
        }
    }

    @Test("with restore_tare = false the bowl reads its own weight after kill -9 and a restart")
    func restoreTareOff() async throws {
        let directory = try TemporaryDirectory(prefix: "plumtare")
        let first = try await offPool { try Self.tareBowl(directory, Self.configuration(directory)) }
        try await offPool { Self.powerCut(first) }
        let configuration = Self.configuration(directory, restoreTare: false)
        let second = try await offPool { try DaemonFixture(configuration: configuration, directory: directory) }
        try await offPool {
            let client = try second.client()
            try client.watch()
            let after = try Self.stable(client)
            #expect(after.tare == 0, "no tare is restored with restore_tare = false: \(after)")
            #expect(abs((after.grams ?? .nan) - Self.bowl) < 1, "the bowl reads its weight: \(after)")
            try waitUntil("the log to say why", timeout: .seconds(10), describe: { second.log }) {
                second.log.contains("pan: saved zero and tare not restored: restore_tare is off")
            }
        }
    }

    @Test("after a recalibration the tare set under the old calibration is not restored")
    func recalibrationDropsTare() async throws {
        let directory = try TemporaryDirectory(prefix: "plumtare")
        let configuration = Self.configuration(directory)
        let first = try await offPool { try Self.tareBowl(directory, configuration) }
        try await offPool {
            let client = try first.client()
            try Self.place(0, directory)
            try client.watch()
            _ = try Self.stable(client) { abs(($0.grams ?? .nan) + Self.bowl) < 1 }
            let steps: [(CalibrationRequest.Step, Double?, Double)] = [
                (.begin, nil, 0), (.zero, nil, 0), (.point, 100, 100), (.commit, nil, 100)
            ]
            for (step, grams, load) in steps {
                try Self.place(load, directory)
                let reply = try client.calibrate(CalibrationRequest(sensor: "pan", step: step, grams: grams))
                #expect(reply.ok, "calibration step \(step.rawValue): \(reply)")
            }
            try Self.place(Self.bowl, directory)
        }
        try await offPool { Self.powerCut(first) }
        let second = try await offPool { try DaemonFixture(configuration: configuration, directory: directory) }
        try await offPool {
            let client = try second.client()
            try client.watch()
            let after = try Self.stable(client)
            #expect(after.tare == 0, "the old calibration's tare is not restored: \(after)")
            #expect(abs((after.grams ?? .nan) - Self.bowl) < 1.5, "the bowl reads its weight: \(after)")
        }
    }
}

import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// On a Pi the daemon's log goes to the journal on the SD card, so every line is a write. A
/// sensor's state change was logged twice, once by the samplers' service and once by the
/// station; here the real daemon writes one line when a wire is pulled and one when it is back.
@Suite(
    "plumscaled logs a sensor's state change once", .serialized, .tags(.process), .timeLimit(.minutes(3)),
    .ownThreads)
struct StateLogProcessTests {
    @Test("a pulled wire and its return write one line each, the first with the reason, and nothing else names the pan")
    func oneLinePerChange() async throws {
        let directory = try TemporaryDirectory(prefix: "plumlog")
        let unplug = directory.file("left.unplugged")
        let daemon = try await offPool {
            try DaemonFixture(
                configuration: """
                    [[sensor]]
                    name = "left"
                    kind = "simulated-hx711"
                    load_grams = 152.3
                    ready_timeout_ms = 300
                    unplug_file = "\(unplug)"
                    """, directory: directory)
        }
        try await offPool {
            try daemon.waitForReadings()
            let watcher = try daemon.client()
            try watcher.watch(WatchOptions(sensors: ["left"]))
            _ = try watcher.nextWeight(within: .seconds(30)) { $0.sensor == "left" && $0.stable }
            let before = daemon.log.split(separator: "\n").count

            writeFile(unplug, "")
            _ = try watcher.nextWeight(within: .seconds(20)) { $0.sensor == "left" && $0.stale }
            // Held out for several of the driver's 300 ms ready timeouts: a line per timeout or
            // per retry would show as more lines.
            let clock = ContinuousClock()
            let back = clock.now + .seconds(2)
            while clock.now < back { _ = try? watcher.nextWeight(within: .milliseconds(200)) { _ in false } }
            unlink(unplug)
            let fresh = try watcher.nextWeight(within: .seconds(30)) { $0.sensor == "left" && $0.stable }
            #expect(!fresh.stale && fresh.grams != nil, "weighing again: \(fresh)")
            // The station logs the return before it publishes the first fresh WEIGHT, and the
            // samplers' service logged its line before handing the state on: both are written.
            let lines = daemon.log.split(separator: "\n").dropFirst(before).map(String.init)
            let naming = lines.filter { $0.contains("left") }
            #expect(naming.count == 2, "one line for the fault, one for the return: \(lines)")
            #expect(
                naming.first.map { $0.contains("left: not-ready: ") && $0.contains("DOUT") } == true,
                "the first says the state and the driver's reason: \(naming)")
            #expect(naming.last?.contains("left: samples again") == true, "the last says it is back: \(naming)")
        }
        #expect(try await offPool { daemon.terminate() } == 0, "log: \(daemon.log)")
    }
}

import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The most severe defect the edges review found: with its DOUT wire pulled, a pan kept
/// answering `S S 152.3 g`, and `T` took and saved a tare from the last reading, so the pan
/// read 0.0 g with 152.3 g on it once the wire was back. Here the real daemon, over its real
/// sockets, is asked everything a client can ask while the wire is out.
@Suite(
    "A sensor that stops answering is weighed nowhere",
    .serialized, .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct SensorOutageProcessTests {
    @Test(
        "with the wire pulled: MT-SICS S, SI, T, Z and TA answer I; POLL and WEIGHT carry no grams but stale, state and age; no total, no heaviest; ?TARE is refused; once back, the load reads as before"
    )
    func pulledWireIsWeighedNowhere() async throws {
        let directory = try TemporaryDirectory(prefix: "plumout")
        let unplug = directory.file("left.unplugged")
        let mtsics = directory.file("mtsics.sock")
        let daemon = try await offPool {
            try DaemonFixture(
                configuration: """
                    [scale]
                    capacity_grams = 385
                    division_grams = 0.1

                    [daemon]
                    mtsics = "\(mtsics)"
                    mtsics_sensor = "left"

                    [[sensor]]
                    name = "left"
                    kind = "simulated-hx711"
                    load_grams = 152.3
                    ready_timeout_ms = 300
                    unplug_file = "\(unplug)"

                    [[sensor]]
                    name = "right"
                    kind = "simulated-hx711"
                    load_grams = 30
                    seed = 4
                    """, directory: directory)
        }
        try await offPool {
            let balance = try LineSocket(path: mtsics)
            balance.send("S\r")
            let before = try #require(
                weightResponse(balance.readLine(), id: "S"), "S answers before the wire is pulled")
            #expect(before.status == "S" && abs(before.grams - 152.3) <= 0.5, "152.3 g weighed: \(before)")

            // A watcher from before the pull: it must be told, not left with the last weight.
            let watcher = try daemon.client()
            try watcher.watch(WatchOptions(sensors: ["left"]))
            writeFile(unplug, "")
            let told = try watcher.nextWeight(within: .seconds(20)) { $0.sensor == "left" && $0.stale }
            #expect(told.grams == nil && !told.stable, "the WEIGHT of a pulled wire has no grams and is not stable")
            #expect(told.state == "not-ready" || told.state == "fault", "its state says why: \(told)")
            #expect(told.reason?.contains("DOUT") == true, "its reason is the driver's hint: \(told.reason ?? "none")")

            for (command, answer) in [("S", "S I"), ("SI", "S I"), ("T", "T I"), ("Z", "Z I"), ("TA 10.0 g", "TA I")] {
                balance.send(command + "\r")
                #expect(balance.readLine() == answer + "\r", "\(command) answers \(answer) while the wire is out")
            }
            balance.send("SIR\r")
            #expect(balance.readLine() == "S I\r", "SIR says at once that there is no weight")
            balance.send("@\r")
            _ = balance.readUntil(limit: 200) { $0.hasPrefix("I4 A") }

            let client = try daemon.client()
            let poll = try client.poll()
            let left = try #require(poll.weights.first { $0.sensor == "left" }, "POLL still names the left pan")
            #expect(left.grams == nil && left.stale && !left.stable, "POLL shows no old weight as current: \(left)")
            #expect((left.age ?? 0) > 0, "POLL gives the age of the last good sample: \(left)")
            #expect(!left.heaviest, "a pan with no current weight is not the heaviest")
            #expect(poll.total == nil, "no total while a pan is out: \(String(describing: poll.total))")
            #expect(poll.totalReason?.contains("left") == true, "the total's reason names the pan: \(poll)")
            #expect(poll.active == 1, "one pan is active")
            let right = try #require(poll.weights.first { $0.sensor == "right" })
            #expect(right.grams != nil && !right.stale, "the other pan keeps weighing: \(right)")

            let tare = try client.tare(sensor: "left")
            #expect(!tare.ok && tare.reason == "sensorUnavailable", "?TARE is refused with the reason: \(tare)")

            let late = try daemon.client()
            try late.watch(WatchOptions(sensors: ["left"]))
            let first = try late.nextWeight(within: .seconds(5)) { $0.sensor == "left" }
            #expect(first.stale, "a watcher that starts during the outage is told at once: \(first)")

            unlink(unplug)
            let fresh = try watcher.nextWeight(within: .seconds(30)) { $0.sensor == "left" && $0.stable }
            #expect(fresh.state == nil && !fresh.stale, "stable again only on fresh samples: \(fresh)")
            #expect(fresh.tare == 0, "no tare was taken while the wire was out")
            #expect(abs((fresh.grams ?? 0) - before.grams) <= 0.5, "the load reads as before again: \(fresh)")
        }
        #expect(try await offPool { daemon.terminate() } == 0, "log: \(daemon.log)")
    }
}

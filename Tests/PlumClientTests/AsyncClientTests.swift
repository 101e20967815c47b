import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

@Suite(
    "The async client and report stream against a real plumscaled",
    .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct AsyncClientTests {
    @Test("a ReportStream yields the WATCH answer, then weights of the sensors watched")
    func stream() async throws {
        let daemon = try await offPool { try DaemonFixture() }
        var seen: [Report] = []
        var weights = 0
        for try await report in ReportStream(watching: WatchOptions(sensors: ["left"]), socketPath: daemon.socketPath) {
            seen.append(report)
            if case .weight(let weight) = report {
                #expect(weight.sensor == "left", "watching left only, a report came from \(weight.sensor)")
                weights += 1
                if weights == 5 { break }
            }
        }
        #expect(weights == 5, "the stream ended after \(seen.count) reports: \(seen.prefix(5))")
        let first = try #require(seen.first, "the stream yielded nothing")
        guard case .watch = first else {
            Issue.record("the first report should be the WATCH answer, was \(first)")
            return
        }
    }

    @Test("cancelling the task that iterates closes the stream's socket")
    func cancellationCloses() async throws {
        let daemon = try await offPool { try DaemonFixture() }
        let started = AsyncStream<Void>.makeStream()
        let watcher = Task {
            var count = 0
            for try await report in ReportStream(socketPath: daemon.socketPath) {
                if case .weight = report { count += 1 }
                if count == 1 { started.continuation.yield() }
            }
            return count
        }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        // The daemon's own descriptors show the connection from its side, whatever else this
        // test process opens meanwhile.
        let watching = daemon.openDescriptors()
        watcher.cancel()
        let count = try await watcher.value
        #expect(count > 0, "the stream ended without a weight report")
        try await offPool {
            try waitUntil(
                "plumscaled to see the stream's socket close", timeout: .seconds(20),
                describe: { "\(daemon.openDescriptors()) descriptors open, \(watching) while watching" }
            ) { daemon.openDescriptors() < watching }
        }
    }

    @Test("a stream with no daemon behind it throws the client's explanation")
    func streamWithoutDaemon() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcl")
        let path = directory.file("absent.sock")
        await #expect(throws: ClientError.self, "iterating a stream from \(path), where nothing listens") {
            for try await _ in ReportStream(socketPath: path) {}
        }
    }

    @Test("the async client answers DEVICES, POLL and TARE without blocking the pool")
    func asyncRequests() async throws {
        let daemon = try await offPool {
            let daemon = try DaemonFixture()
            try daemon.waitForReadings()
            return daemon
        }
        let client = try await AsyncDaemonClient(socketPath: daemon.socketPath)
        #expect(client.version.protoMajor == 1, "greeting was \(client.version)")
        let devices = try await client.devices()
        #expect(devices.map(\.sensor) == ["left", "right"], "devices: \(devices)")
        let poll = try await client.poll()
        #expect(poll.weights.count == 2, "POLL weights: \(poll.weights)")
        let tare = try await client.tare(sensor: "left", timeout: .seconds(20))
        #expect(tare.command == "TARE" && tare.sensor == "left", "tare reply: \(tare)")
    }
}

import PlumDrivers
import PlumHardware
import PlumSimulation
import PlumSystem
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumStation

#if canImport(Glibc)
    import Glibc
#endif

func writeTrace(_ path: String, sensor: String, codes: [Int32]) {
    var text = "time_s,sensor,raw\n"
    for (index, code) in codes.enumerated() { text += "\(1 + Double(index) * 0.0125),\(sensor),\(code)\n" }
    let file = fopen(path + ".tmp", "w")!
    fputs(text, file)
    fclose(file)
    rename(path + ".tmp", path)
}

/// Collects a sampler's events until its stream finishes (or `limit` events).
func collect(_ sampler: Sampler, limit: Int = .max) async -> [Sampler.Event] {
    var events: [Sampler.Event] = []
    for await event in sampler.events {
        events.append(event)
        if events.count >= limit { break }
    }
    return events
}

extension Sampler.Event {
    var raw: Int32? { if case .sample(let s) = self { s.raw } else { nil } }
    var state: SensorState? { if case .state(let s) = self { s } else { nil } }
}

@Suite("Sampler threads")
struct SamplerTests {
    @Test("samples arrive in order, then the end of a trace is a state and the stream finishes")
    func deliversInOrder() async throws {
        let directory = try TemporaryDirectory(prefix: "plum-sampler")
        let path = directory.file("t.csv")
        let codes: [Int32] = (0..<200).map { Int32($0 * 3 - 100) }
        writeTrace(path, sensor: "pan", codes: codes)
        let sampler = Sampler(name: "pan") { () throws(SensorError) -> any SampleSource in
            try TraceReplay(name: "pan", path: path, traceSensor: "pan", realTime: false, clock: SystemMonotonicClock())
        }
        sampler.start()
        let events = await collect(sampler)
        #expect(events.compactMap(\.raw) == codes)
        #expect(events.compactMap(\.state) == [.ok, .ended])
        #expect(sampler.status.state == .ended)
        #expect(sampler.status.statistics.published == 200)
    }

    @Test("a sensor that cannot be opened is a fault with its reason, retried until it works")
    func recoversFromFault() async throws {
        let directory = try TemporaryDirectory(prefix: "plum-sampler")
        let path = directory.file("late.csv")
        let opens = Atomic<Int>(0)
        let sampler = Sampler(
            name: "late", backoff: BackOff(first: .milliseconds(20), limit: .milliseconds(40), jitter: 0)
        ) {
            () throws(SensorError) -> any SampleSource in
            if opens.add(1, ordering: .relaxed).newValue == 3 {
                // The "cable" is plugged in while the sampler is retrying.
                writeTrace(path, sensor: "late", codes: [7, 8, 9])
            }
            return try TraceReplay(
                name: "late", path: path, traceSensor: "late", realTime: false, clock: SystemMonotonicClock())
        }
        sampler.start()
        let events = await collect(sampler)
        let states = events.compactMap(\.state)
        let faults = states.filter { $0.name == "fault" }
        #expect(faults.count == 2)
        #expect(faults.allSatisfy { $0.reason?.contains(path) == true })
        #expect(states.suffix(2) == [.ok, .ended])
        #expect(events.compactMap(\.raw) == [7, 8, 9])
        #expect(sampler.status.faults == 2)
        let lastFault = sampler.status.lastFault
        #expect(
            lastFault == faults.last?.description && lastFault?.hasPrefix("fault: ") == true,
            "the last fault is kept after the sensor works again: \(String(describing: lastFault))")
    }

    @Test("a consumer that does not keep up loses the oldest samples, counted, never the sampler's time")
    func boundedBuffer() async throws {
        let directory = try TemporaryDirectory(prefix: "plum-sampler")
        let path = directory.file("fast.csv")
        let codes: [Int32] = Array(0..<500)
        writeTrace(path, sensor: "fast", codes: codes)
        let sampler = Sampler(name: "fast", bufferCapacity: 16) { () throws(SensorError) -> any SampleSource in
            try TraceReplay(
                name: "fast", path: path, traceSensor: "fast", realTime: false, clock: SystemMonotonicClock())
        }
        sampler.start()
        // Do not read until the thread has produced everything.
        try await waitFor("the sampler to replay the whole trace", describe: { "\(sampler.status)" }) {
            sampler.status.state == .ended
        }
        let events = await collect(sampler)
        let received = events.compactMap(\.raw)
        #expect(events.count == 16)
        #expect(UInt64(received.count) + sampler.status.droppedByBuffer == UInt64(codes.count))
        #expect(received == Array(received.sorted()))
        #expect(received.last == 499, "the newest are kept")
    }

    @Test("stop ends the stream and says stopped")
    func stops() async throws {
        let sampler = Sampler(name: "sim", bufferCapacity: 4) { () throws(SensorError) -> any SampleSource in
            throw .hardware(sensor: "sim", HardwareError(.notFound, operation: "opening", subject: "/dev/gpiochip9"))
        }
        sampler.start()
        try await waitFor("the sampler to count its first fault", describe: { "\(sampler.status)" }) {
            sampler.status.faults > 0
        }
        #expect(sampler.isHealthy(stallLimit: .seconds(5)))
        sampler.stop()
        let states = await collect(sampler).compactMap(\.state)
        #expect(states.last == .stopped)
        #expect(sampler.status.state == .stopped)
    }

    @Test("a faulted sensor's back-off doubles from 500 ms up to its 30 s cap, without jitter")
    func backoffDoubles() {
        let backoff = BackOff.sensorReopen
        #expect(
            (0..<9).map { backoff.delay(afterFailures: $0) } == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16),
                .seconds(30), .seconds(30), .seconds(30)
            ])
    }
}

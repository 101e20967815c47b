import PlumDrivers
import PlumHardware
import PlumTestSupport
import Testing

@testable import PlumSimulation

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Trace record and replay")
struct TraceReplayTests {
    @Test("a recorded trace replays the same raw codes, spacing and sensor, flagged as replayed")
    func recordThenReplay() throws {
        let directory = try TemporaryDirectory(prefix: "plum-trace")
        let path = directory.file("session.csv")
        let recorder = try TraceRecorder(path: path)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let codes: [Int32] = [-8_388_608, -1, 0, 1, 123_456, 8_388_607]
        for (index, code) in codes.enumerated() {
            let time = start.advanced(byNanoseconds: UInt64(index) * 12_500_000)  // 80 SPS
            try recorder.record(Sample(raw: code, signal: Double(code), time: time), sensor: "left")
            try recorder.record(Sample(raw: 7, signal: 7, time: time), sensor: "right")
        }
        try recorder.close()

        let clock = VirtualClock()
        let replay = try TraceReplay(name: "again", path: path, traceSensor: "left", realTime: true, clock: clock)
        var samples: [Sample] = []
        for _ in codes { samples.append(try replay.next()) }
        #expect(samples.map(\.raw) == codes)
        #expect(samples.allSatisfy { $0.flags.contains(.replayed) })
        let gaps = zip(samples.dropFirst(), samples).map { $0.time.nanoseconds(since: $1.time) }
        #expect(gaps.allSatisfy { $0 == 12_500_000 })
        // Real-time pacing moved the (virtual) clock to the last sample's time.
        #expect(clock.now() == samples.last?.time)
        #expect(throws: SensorError.endOfData(sensor: "again")) { try replay.next() }
        #expect(replay.statistics.published == UInt64(codes.count))
    }

    @Test("a file that is not a trace is refused with the file and what a trace looks like")
    func wrongHeader() throws {
        let directory = try TemporaryDirectory(prefix: "plum-trace")
        let path = directory.file("notes.csv")
        writeFile(path, "when,who,value\n1,left,2\n")
        #expect {
            try TraceReplay(name: "x", path: path, traceSensor: "left", realTime: false, clock: VirtualClock())
        } throws: { error in
            let text = String(describing: error)
            return text.contains(path) && text.contains("time_s,sensor,raw")
        }
    }

    @Test("a malformed line names its line number and stops the replay")
    func malformedLine() throws {
        let directory = try TemporaryDirectory(prefix: "plum-trace")
        let path = directory.file("broken.csv")
        writeFile(path, "time_s,sensor,raw\n0.0,left,10\n0.1,left,eleven\n")
        let replay = try TraceReplay(name: "x", path: path, traceSensor: "left", realTime: false, clock: VirtualClock())
        #expect(try replay.next().raw == 10)
        #expect {
            try replay.next()
        } throws: { error in
            String(describing: error).contains("line 3") && String(describing: error).contains("eleven")
        }
    }

    /// Found by fuzzing (Tests/fuzz, target fuzz-trace): 1e300 s after the first sample does not
    /// fit the clock's nanoseconds, and converting it trapped, taking the daemon down.
    @Test(
        "a time centuries after the first sample is refused naming its line, not a crash",
        arguments: [
            "1e300", "1.8446744073709552e10", "3155760001"
        ])
    func timeBeyondTheClock(_ time: String) throws {
        let directory = try TemporaryDirectory(prefix: "plum-trace")
        let path = directory.file("far.csv")
        writeFile(path, "time_s,sensor,raw\n0,left,1\n\(time),left,2\n")
        let replay = try TraceReplay(name: "x", path: path, traceSensor: "left", realTime: false, clock: VirtualClock())
        #expect(try replay.next().raw == 1)
        #expect {
            try replay.next()
        } throws: { error in
            String(describing: error).contains("line 3") && String(describing: error).contains(time)
        }
    }

    @Test("a time just under 100 years after the first sample still replays, at its offset")
    func timeWithinTheClock() throws {
        let directory = try TemporaryDirectory(prefix: "plum-trace")
        let path = directory.file("long.csv")
        let seconds: UInt64 = 3_155_759_999
        writeFile(path, "time_s,sensor,raw\n0,left,1\n\(seconds),left,2\n")
        let replay = try TraceReplay(name: "x", path: path, traceSensor: "left", realTime: false, clock: VirtualClock())
        let first = try replay.next()
        let last = try replay.next()
        #expect(last.time.nanoseconds(since: first.time) == seconds * 1_000_000_000, "the offset was not kept")
    }

    @Test("a missing trace is an error naming the path")
    func missingTrace() {
        #expect {
            try TraceReplay(
                name: "x", path: "/nonexistent/t.csv", traceSensor: "x", realTime: false, clock: VirtualClock())
        } throws: { error in
            String(describing: error).contains("/nonexistent/t.csv") && String(describing: error).contains("ENOENT")
        }
    }
}

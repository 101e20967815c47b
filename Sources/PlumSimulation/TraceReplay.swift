public import PlumDrivers
public import PlumHardware

#if canImport(Glibc)
    import Glibc
#endif

/// Plays back a recorded trace (`time_s,sensor,raw` CSV) as a sample source, so a real session
/// can be replayed through the engine and the daemon exactly as it happened.
///
/// The file is streamed line by line (a day at 80 SPS is 7 million lines): memory stays flat.
/// Lines for other sensors are skipped. With `realTime`, samples are released at their recorded
/// spacing, re-based onto the clock's present; otherwise as fast as they are asked for, with
/// their recorded spacing kept in the timestamps.
public final class TraceReplay<Time: MonotonicClock>: SampleSource {
    public let info: SourceInfo
    public private(set) var statistics = DriverStatistics()

    private let path: String
    private let traceSensor: String
    private let realTime: Bool
    private let clock: Time
    private var file: UnsafeMutablePointer<FILE>?
    private var lineNumber = 0
    /// The first recorded time and the instant it was mapped to.
    private var origin: (recorded: Double, replayed: MonotonicInstant)?

    /// Opens a trace.
    /// - Throws: ``SensorError/hardware(sensor:_:)`` naming the file when it cannot be opened or
    ///   its header is not `time_s,sensor,raw`.
    public init(
        name: String, path: String, traceSensor: String, realTime: Bool, clock: Time,
        signal: SignalKind = .loadCellCounts, nominalRate: Double = 80
    ) throws(SensorError) {
        self.path = path
        self.traceSensor = traceSensor
        self.realTime = realTime
        self.clock = clock
        info = SourceInfo(
            name: name, kind: "replay", wiring: "\(path) sensor \(traceSensor)\(realTime ? "" : ", fast")",
            signal: signal, nominalRate: nominalRate)
        guard let file = fopen(path, "r") else {
            let code = Errno.current
            throw .hardware(
                sensor: name,
                HardwareError(
                    .notFound, operation: "opening trace", subject: path, errno: code,
                    hint: "record one with `plumscale raw --record FILE`, or check the path"))
        }
        self.file = file
        guard let header = readLine(), header.split(separator: ",").map({ $0.trimmingSpaces }) == TraceRecorder.columns
        else {
            throw .hardware(sensor: name, malformed("line 1: expected the header time_s,sensor,raw"))
        }
    }

    deinit {
        if let file { fclose(file) }
    }

    public func next() throws(SensorError) -> Sample {
        while let line = readLine() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard fields.count == 3 else {
                throw .hardware(
                    sensor: info.name,
                    malformed("line \(lineNumber): expected 3 fields time_s,sensor,raw, found \(fields.count)"))
            }
            guard fields[1] == traceSensor else { continue }
            guard let recorded = Double(fields[0]), recorded.isFinite, let raw = Int32(fields[2]) else {
                throw .hardware(
                    sensor: info.name,
                    malformed("line \(lineNumber): \"\(line)\" is not a time in seconds, a name and a whole number"))
            }
            guard let time = replayTime(recorded) else {
                throw .hardware(
                    sensor: info.name,
                    malformed(
                        "line \(lineNumber): time_s \(fields[0]) lies more than 100 years after the trace's first "
                            + "sample"
                    ))
            }
            if realTime { clock.sleep(until: time) }
            statistics.published += 1
            return Sample(raw: raw, signal: Double(raw), time: time, flags: .replayed)
        }
        throw .endOfData(sensor: info.name)
    }

    /// The latest time replayed, in seconds after the first sample: 100 years. A later one is
    /// no recording, and its nanoseconds would not fit the monotonic clock.
    static var maximumOffset: Double { 100 * 365.25 * 86_400 }

    /// The replayed instant of a recorded time, or nil past ``maximumOffset``.
    private func replayTime(_ recorded: Double) -> MonotonicInstant? {
        guard let origin else {
            let now = clock.now()
            origin = (recorded, now)
            return now
        }
        let offset = max(0, recorded - origin.recorded)
        guard offset <= Self.maximumOffset else { return nil }
        return origin.replayed.advanced(byNanoseconds: UInt64((offset * 1e9).rounded()))
    }

    private func malformed(_ detail: String) -> HardwareError {
        HardwareError(
            .malformed, operation: "reading trace", subject: path, detail: detail,
            hint: "a trace is CSV with the header time_s,sensor,raw")
    }

    private func readLine() -> String? {
        guard let file else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let count = getline(&buffer, &capacity, file)
        guard count >= 0, let buffer else { return nil }
        lineNumber += 1
        var text = String(cString: buffer)
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

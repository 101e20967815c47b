internal import PlumDrivers
internal import PlumProtocol

/// Gathers one sensor's raw samples into `RAW` reports: a report holds at most ``limit``
/// samples and closes after ``window`` nanoseconds of sample time, so a watcher gets raw codes
/// in a few lines a second rather than one line per sample.
struct RawBatcher {
    /// Samples per report, at most.
    let limit: Int
    /// Sample time after which a report closes, in nanoseconds.
    let window: UInt64
    private var times: [Double] = []
    private var codes: [Int32] = []
    private var start: UInt64?

    init(limit: Int, window: UInt64) {
        self.limit = limit
        self.window = window
    }

    /// Adds `sample`, taken at wall-clock `time`; the finished report when this sample
    /// closes one.
    mutating func add(_ sample: Sample, time: Double, sensor: String) -> RawReport? {
        let first = start ?? sample.time.nanoseconds
        start = first
        times.append(time)
        codes.append(sample.raw)
        guard codes.count >= limit || sample.time.nanoseconds &- first >= window else { return nil }
        let report = RawReport(sensor: sensor, times: times, raw: codes)
        times.removeAll(keepingCapacity: true)
        codes.removeAll(keepingCapacity: true)
        start = nil
        return report
    }
}

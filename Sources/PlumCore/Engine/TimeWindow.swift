/// The samples of the last `window` nanoseconds, oldest first: what stability and the flow
/// rate are judged over, so both mean the same at 10 SPS and 80 SPS.
///
/// A sample earlier than the newest, or more than a window after it, starts the window over:
/// samples before a gap cannot vouch for now. The window is *full* once its samples span a
/// whole `window` since it last started over. Both ends count: a full window holds 11 samples
/// at 10 SPS over 1 s.
struct TimeWindow: Sendable {
    let window: UInt64
    private(set) var times: [UInt64] = []
    private(set) var values: [Double] = []
    /// The index of the oldest sample still in the window; older ones wait to be compacted.
    private(set) var head = 0
    private var coveredSince: UInt64?

    init(window: UInt64) {
        self.window = window
    }

    /// Forgets every sample: the window is full again a whole window later.
    mutating func reset() {
        times.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        head = 0
        coveredSince = nil
    }

    /// Adds a sample at `time` (monotonic nanoseconds), dropping those older than a window.
    mutating func append(_ value: Double, at time: UInt64) {
        if let last = times.last, time < last || time - last > window { reset() }
        if coveredSince == nil { coveredSince = time }
        times.append(time)
        values.append(value)
        let start = time >= window ? time - window : 0
        while head < times.count - 1, times[head] < start { head += 1 }
        // Compact now and then, so the arrays stay about as small as the window.
        if head > 256 {
            times.removeFirst(head)
            values.removeFirst(head)
            head = 0
        }
    }

    /// The samples span a whole window since the window last started over.
    var isFull: Bool {
        guard let since = coveredSince, let newest = times.last else { return false }
        return newest - since >= window
    }

    /// The positions of the samples in the window, in `times` and `values`.
    var indices: Range<Int> { head..<times.count }
}

extension TimeWindow {
    /// The least-squares slope of the values on seconds over the window (per second); nil when
    /// the samples share one time.
    func slope() -> Double? { fit()?.slope }

    /// The least-squares line of the values on seconds over the window: its slope per second,
    /// and Σ(t − t̄)² in s², which gives the slope's standard error σ / √Σ(t − t̄)² for samples
    /// with independent noise σ. Times are measured from the newest sample so the sums stay
    /// small and exact; nil when the samples share one time.
    func fit() -> (slope: Double, spread: Double)? {
        let newest = times[times.count - 1]
        let count = Double(indices.count)
        var sumT = 0.0
        var sumV = 0.0
        for index in indices {
            sumT -= Double(newest - times[index]) / 1e9
            sumV += values[index]
        }
        let meanT = sumT / count
        let meanV = sumV / count
        var covariance = 0.0
        var variance = 0.0
        for index in indices {
            let t = -Double(newest - times[index]) / 1e9 - meanT
            covariance += t * (values[index] - meanV)
            variance += t * t
        }
        guard variance > 0 else { return nil }
        return (covariance / variance, variance)
    }
}

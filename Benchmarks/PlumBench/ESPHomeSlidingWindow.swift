/// ESPHome's `sliding_window_moving_average` sensor filter: the mean of the last `windowSize`
/// values (fewer at start-up), output every `sendEvery` values starting with value
/// `sendFirstAt`.
///
/// ESPHome's defaults are window 15 and send_every 15; the benchmark uses window 10 and
/// send_every 1, which is the most favourable setting for this peer (an output on every
/// conversion).
package struct ESPHomeSlidingWindow: ReadingFilter {
    package let windowSize: Int
    package let sendEvery: Int
    private var window: [Double] = []
    private var sendAt: Int

    package init(windowSize: Int = 10, sendEvery: Int = 1, sendFirstAt: Int = 1) {
        self.windowSize = max(1, windowSize)
        self.sendEvery = max(1, sendEvery)
        sendAt = self.sendEvery - max(1, sendFirstAt)
    }

    package var name: String { "ESPHome sliding_window_moving_average(\(windowSize))" }

    package mutating func process(_ raw: Double) -> Double? {
        window.append(raw)
        if window.count > windowSize { window.removeFirst() }
        sendAt += 1
        guard sendAt >= sendEvery else { return nil }
        sendAt = 0
        return window.reduce(0, +) / Double(window.count)
    }
}

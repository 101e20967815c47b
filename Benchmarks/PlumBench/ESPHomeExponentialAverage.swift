/// ESPHome's `exponential_moving_average` sensor filter: the first value as is, then
/// `alpha · x + (1 − alpha) · previous`, output every `sendEvery` values.
///
/// ESPHome's default send_every is 15; the benchmark uses 1, the most favourable to this peer.
package struct ESPHomeExponentialAverage: ReadingFilter {
    package let alpha: Double
    package let sendEvery: Int
    private var accumulator: Double?
    private var sendAt: Int

    package init(alpha: Double = 0.1, sendEvery: Int = 1, sendFirstAt: Int = 1) {
        self.alpha = alpha
        self.sendEvery = max(1, sendEvery)
        sendAt = self.sendEvery - max(1, sendFirstAt)
    }

    package var name: String { "ESPHome exponential_moving_average(\(alpha))" }

    package mutating func process(_ raw: Double) -> Double? {
        accumulator = accumulator.map { alpha * raw + (1 - alpha) * $0 } ?? raw
        sendAt += 1
        guard sendAt >= sendEvery else { return nil }
        sendAt = 0
        return accumulator
    }
}

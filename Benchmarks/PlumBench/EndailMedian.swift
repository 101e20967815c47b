/// endail/hx711 (C++, Raspberry Pi) `weight(samples)` with its median read type: `samples`
/// conversions, their median (the mean of the two middle ones for an even count); one value per
/// `samples` conversions. The benchmark uses 3.
package struct EndailMedian: ReadingFilter {
    package let samples: Int
    private var block: [Double] = []

    package init(samples: Int = 3) { self.samples = max(1, samples) }

    package var name: String { "endail/hx711 median of \(samples)" }

    package mutating func process(_ raw: Double) -> Double? {
        block.append(raw)
        guard block.count == samples else { return nil }
        defer { block.removeAll(keepingCapacity: true) }
        return Gandalf15OutlierMean.median(block)
    }
}

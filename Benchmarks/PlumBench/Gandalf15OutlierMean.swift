/// gandalf15/HX711 (Python, Raspberry Pi) `get_raw_data_mean(readings=30)` with its default
/// `outliers_filter`: take `readings` conversions; drop values equal to −1, 0 or 1 (the filter
/// compares with `False`/`True`, which Python treats as 0 and 1); take the median; each value's
/// distance from it; keep the values whose distance is under one sample standard deviation of
/// those distances (all the same distance → the median alone); the mean of what is kept,
/// truncated with `int()`. One value per `readings` conversions.
package struct Gandalf15OutlierMean: ReadingFilter {
    package let readings: Int
    private var block: [Double] = []

    package init(readings: Int = 30) { self.readings = max(3, readings) }

    package var name: String { "gandalf15 outliers_filter mean(\(readings))" }

    package mutating func process(_ raw: Double) -> Double? {
        block.append(raw)
        guard block.count == readings else { return nil }
        defer { block.removeAll(keepingCapacity: true) }
        return Self.filteredMean(block)
    }

    /// The library's filter and mean on one block; nil when nothing survives (it returns False).
    static func filteredMean(_ values: [Double]) -> Double? {
        let data = values.filter { $0 != -1 && $0 != 0 && $0 != 1 }
        guard !data.isEmpty else { return nil }
        let median = Self.median(data)
        let distances = data.map { abs($0 - median) }
        guard distances.count > 1 else { return median.rounded(.towardZero) }
        let mean = distances.reduce(0, +) / Double(distances.count)
        let variance = distances.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(distances.count - 1)
        let deviation = variance.squareRoot()
        guard deviation > 0 else { return median.rounded(.towardZero) }
        let kept = zip(data, distances).filter { $0.1 / deviation < 1.0 }.map(\.0)
        guard !kept.isEmpty else { return nil }
        return (kept.reduce(0, +) / Double(kept.count)).rounded(.towardZero)
    }

    /// Python's `statistics.median`: the middle value, or the mean of the two middle values.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

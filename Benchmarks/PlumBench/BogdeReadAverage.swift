/// bogde/HX711 (Arduino) `read_average(times)`: `times` blocking `read()`s summed in a `long`
/// and divided with C integer division (truncation toward zero); one value per `times`
/// conversions. `get_units(10)` is this minus the offset, divided by the scale.
package struct BogdeReadAverage: ReadingFilter {
    package let times: Int
    private var sum: Int64 = 0
    private var count = 0

    package init(times: Int = 10) { self.times = max(1, times) }

    package var name: String { "bogde/HX711 read_average(\(times))" }

    package mutating func process(_ raw: Double) -> Double? {
        sum += Int64(raw)
        count += 1
        guard count == times else { return nil }
        defer {
            sum = 0
            count = 0
        }
        return Double(sum / Int64(times))  // Swift's `/` on integers truncates toward zero, as C's does.
    }
}

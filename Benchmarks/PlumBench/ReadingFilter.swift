/// A filter that turns a stream of raw conversions into displayed values, one conversion at a
/// time, as the benchmark drives it.
///
/// Peers that block to average (`read_average(10)`) output only every n-th conversion: they
/// return nil in between, and what the display shows is the last output.
package protocol ReadingFilter {
    /// A short name for the results table.
    var name: String { get }
    /// Takes one conversion (raw counts); returns the new displayed value, if any.
    mutating func process(_ raw: Double) -> Double?
}

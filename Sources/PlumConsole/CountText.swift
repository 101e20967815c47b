import PlumCore
import PlumProtocol

/// A piece count for the terminal.
package enum CountText {
    /// The count of a `WEIGHT` in words: "left: 20 pieces", or the ratio when it is ambiguous.
    package static func text(_ report: WeightReport) -> String {
        if let count = report.count { return "\(report.sensor): \(count) \(count == 1 ? "piece" : "pieces")" }
        let ratio = report.countRatio.map { FixedPoint.text($0, decimals: 2) } ?? "?"
        return "\(report.sensor): ambiguous, \(ratio) pieces — a piece of another size, or something else on the pan"
    }
}

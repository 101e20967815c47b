internal import PlumCore
package import PlumDrivers

/// When PlumScale's power-up zero is set at a rate, on an empty pan: its first stable reading,
/// since nothing is stable before the zero (docs/engine.md, R 76's order). A benchmark places
/// its first load a second after it, for every filter alike, as an operator waits for the
/// display to show 0 before weighing: a load placed earlier would measure the power-up, not
/// the settling.
package struct PowerUpZero: Sendable {
    /// Seconds from the start to the power-up zero.
    package let seconds: Double
    /// Seconds at which a benchmark places its first load: the next whole second after the
    /// zero and one more.
    package var firstLoad: Double { (seconds + 1).rounded(.up) }

    /// PlumScale on an empty pan was not stable within the time given.
    package struct NotReached: Error, CustomStringConvertible {
        var rate: HX711Rate
        var seconds: Double
        package var description: String {
            "PlumScale's power-up zero was not set within \(Int(seconds)) s on an empty pan at "
                + "\(Int(rate.samplesPerSecond)) SPS: the benchmark cannot place its loads after it"
        }
    }

    /// Runs an empty pan through the chip model and PlumScale at `rate` from `seed`.
    package init(rate: HX711Rate, seed: UInt64, within limit: Double = 15) throws {
        let zero = Double(try WorkloadTrace.calibrationCode(grams: 0, rate: rate))
        let full = Double(try WorkloadTrace.calibrationCode(grams: 385, rate: rate))
        let emptyPan = try WorkloadTrace(workload: .empty(duration: limit), rate: rate, seed: seed)
        let shown = try FilterUnderTest.plumScale.run(
            emptyPan, zero: zero, countsPerGram: (full - zero) / 385,
            stabilityWindow: ScaleConfiguration().stabilityWindow)
        guard let ready = shown.points.first(where: { $0.stable })?.time else {
            throw NotReached(rate: rate, seconds: limit)
        }
        seconds = ready
    }
}

public import PlumHardware

/// A strain-gauge load cell: grams in, differential millivolts out, with zero balance, creep
/// and a slow temperature drift of zero.
///
/// Mirrors the figures on a load-cell datasheet (rated capacity, rated output in mV/V, zero
/// balance, creep over 30 minutes, temperature effect on zero). The bridge is ratiometric: its
/// output is proportional to the excitation, which on HX711 boards is AVDD.
///
/// Creep follows a first-order lag: under a load L applied at t₀ the output approaches
/// L·(1 + creep) with time constant ``creepTimeConstant``, and recovers the same way when the
/// load is removed (creep recovery, the slow return to zero).
public struct LoadCell: Hashable, Sendable {
    /// Rated capacity in grams.
    public var capacityGrams: Double
    /// Output at rated capacity, in millivolts per volt of excitation.
    public var ratedOutput: Double
    /// Output with no load, in millivolts per volt (datasheets allow ±0.1 to ±0.2 mV/V).
    public var zeroBalance: Double
    /// Creep as a fraction of the load after several time constants (datasheets: 0.02–0.05 %
    /// in 30 minutes).
    public var creep: Double
    public var creepTimeConstant: Duration
    /// Amplitude of the zero's drift with room temperature, in millivolts per volt.
    public var zeroDrift: Double
    /// Period of that drift (a slow temperature cycle).
    public var driftPeriod: Duration

    /// The creep lag's state: the load the cell has "got used to", in grams.
    private var creepLoad: Double = 0
    private var lastTime: MonotonicInstant?

    /// A 1 kg, 1 mV/V cell of the kind sold with HX711 boards: 0.02 mV/V zero balance,
    /// 0.03 % creep with a 5-minute time constant, and 0.2 µV/V of zero drift over 20 minutes.
    public init(
        capacityGrams: Double = 1000, ratedOutput: Double = 1.0, zeroBalance: Double = 0.02,
        creep: Double = 0.0003, creepTimeConstant: Duration = .seconds(300),
        zeroDrift: Double = 0.0002, driftPeriod: Duration = .seconds(1200)
    ) {
        self.capacityGrams = capacityGrams
        self.ratedOutput = ratedOutput
        self.zeroBalance = zeroBalance
        self.creep = creep
        self.creepTimeConstant = creepTimeConstant
        self.zeroDrift = zeroDrift
        self.driftPeriod = driftPeriod
    }

    /// The same cell with no creep and no drift: output exactly linear in load, for tests
    /// that compare codes.
    public var ideal: LoadCell {
        var cell = self
        cell.creep = 0
        cell.zeroDrift = 0
        return cell
    }

    /// The bridge's differential output for a load, advancing the creep lag to `time`.
    /// - Parameters:
    ///   - grams: the force on the cell, in grams.
    ///   - excitation: the bridge excitation (AVDD) in volts.
    /// - Returns: volts across the bridge's output.
    public mutating func outputVolts(grams: Double, excitation: Double, at time: MonotonicInstant) -> Double {
        if creep != 0 {
            let seconds = lastTime.map { Double(time.nanoseconds(since: $0)) / 1e9 } ?? 0
            let tau =
                Double(creepTimeConstant.components.seconds) + Double(creepTimeConstant.components.attoseconds) / 1e18
            let step = tau > 0 ? 1 - LoadMath.exp(-seconds / tau) : 1
            creepLoad += (grams - creepLoad) * step
        }
        lastTime = time
        var millivoltsPerVolt = zeroBalance + ratedOutput * (grams + creep * creepLoad) / capacityGrams
        if zeroDrift != 0 {
            let period = Double(driftPeriod.components.seconds)
            if period > 0 {
                millivoltsPerVolt += zeroDrift * LoadMath.sin(2 * Double.pi * time.seconds / period)
            }
        }
        return millivoltsPerVolt * 1e-3 * excitation
    }
}

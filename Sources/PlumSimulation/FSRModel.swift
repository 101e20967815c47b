public import PlumHardware

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The resistance of an Interlink FSR 402 under a load that changes over time.
///
/// After Interlink's FSR 400 Series data sheet and FSR Integration Guide:
/// - below the break force (about 0.2 N, 20 g) the FSR is open: > 10 MΩ stand-off resistance;
/// - above it, resistance follows an inverse power law, `R = k · F^−n`, with n about 0.7–0.9
///   and about 1 kΩ at 10 N for the 402 ("roughly 1/R" over the dynamic range);
/// - parts differ: k is drawn once per part from a seeded generator (the data sheet gives
///   ±6 % within a batch; the guide's force accuracy of ±5 … ±25 % covers batches);
/// - hysteresis: the data sheet gives +10 % average for (R_F+ − R_F−) / R_F+, R_F+ measured
///   with rising force and R_F− with falling force, so the same force reads a lower resistance
///   while unloading. The model uses a rate-independent play: after the force falls 10 %
///   from a turning point the full `hysteresis` applies, after it rises 10 % none does;
/// - drift: under a standing load the resistance creeps down by up to 5 % per decade of time
///   ("< 5 % per log10(time)", 1 kg for 35 days), restarting when the load is removed.
///
/// The model keeps history, so it must be asked at non-decreasing times (as a chip model
/// does, conversion after conversion). Earlier times are answered from the current state.
public final class FSRModel {
    /// The curve and the imperfections of one kind of FSR.
    public struct Parameters: Hashable, Sendable {
        /// Below this force the FSR does not conduct.
        public var breakForceNewtons: Double
        /// The resistance the nominal part shows at ``referenceNewtons``.
        public var referenceOhms: Double
        public var referenceNewtons: Double
        /// n in `R = k · F^−n`.
        public var exponent: Double
        /// The resistance below the break force; `.infinity` for no conduction path.
        public var openOhms: Double
        /// Parts draw k within ±this fraction of nominal.
        public var partToPartSpread: Double
        /// The fractional resistance drop on unloading, (R_F+ − R_F−) / R_F+.
        public var hysteresis: Double
        /// The fractional resistance drop per decade of time under load.
        public var creepPerDecade: Double
        /// The time that counts as the first decade of creep.
        public var creepOnsetSeconds: Double

        public init(
            breakForceNewtons: Double = 0.2, referenceOhms: Double = 1_000, referenceNewtons: Double = 10,
            exponent: Double = 0.8, openOhms: Double = .infinity, partToPartSpread: Double = 0.15,
            hysteresis: Double = 0.10, creepPerDecade: Double = 0.05, creepOnsetSeconds: Double = 1
        ) {
            self.breakForceNewtons = breakForceNewtons
            self.referenceOhms = referenceOhms
            self.referenceNewtons = referenceNewtons
            self.exponent = exponent
            self.openOhms = openOhms
            self.partToPartSpread = partToPartSpread
            self.hysteresis = hysteresis
            self.creepPerDecade = creepPerDecade
            self.creepOnsetSeconds = creepOnsetSeconds
        }

        /// The FSR 402 (12.7 mm active area) as the data sheet and the integration guide describe it.
        public static let fsr402 = Parameters()

        /// A perfect part: no spread, no hysteresis, no creep. For tests of the curve itself.
        public static let ideal402 = Parameters(partToPartSpread: 0, hysteresis: 0, creepPerDecade: 0)
    }

    /// Newtons per gram-force (standard gravity).
    public static let newtonsPerGram = 9.806_65e-3

    public let parameters: Parameters
    /// This part's k relative to nominal (1 ± spread).
    public let partFactor: Double
    private let load: any LoadProfile
    private var lastTime: MonotonicInstant?
    private var lastNewtons = 0.0
    /// How far into the unloading branch the part is: 0 on the loading curve, 1 fully unloading.
    private var unloading = 0.0
    private var loadedSince: MonotonicInstant?

    /// - Parameters:
    ///   - load: grams on the sensor over time.
    ///   - parameters: the kind of FSR.
    ///   - seed: picks this part from the spread.
    public init(load: any LoadProfile, parameters: Parameters = .fsr402, seed: UInt64 = 402) {
        self.load = load
        self.parameters = parameters
        var random = SeededRandom(seed: seed)
        partFactor = 1 + parameters.partToPartSpread * (2 * random.unit() - 1)
    }

    /// This part's resistance on the loading curve at `newtons`, with no history.
    public func loadingOhms(newtons: Double) -> Double {
        guard newtons >= parameters.breakForceNewtons, newtons.isFinite else { return parameters.openOhms }
        return partFactor * parameters.referenceOhms * pow(newtons / parameters.referenceNewtons, -parameters.exponent)
    }

    /// The force the load puts on the sensor at `time`, in newtons.
    public func newtons(at time: MonotonicInstant) -> Double {
        max(0, load.grams(at: time)) * Self.newtonsPerGram
    }

    /// The resistance at `time`, with hysteresis and creep; `.infinity` (by default) when open.
    public func ohms(at time: MonotonicInstant) -> Double {
        let force = newtons(at: time)
        if let last = lastTime, time < last {
            return resistance(force: force, at: last)
        }
        // Play operator: a 10 % move against the last direction switches branches fully.
        let width = 0.1 * max(force, lastNewtons, parameters.breakForceNewtons)
        unloading = min(1, max(0, unloading - (force - lastNewtons) / width))
        lastNewtons = force
        lastTime = time
        if force < parameters.breakForceNewtons {
            loadedSince = nil
            unloading = 0
        } else if loadedSince == nil {
            loadedSince = time
        }
        return resistance(force: force, at: time)
    }

    private func resistance(force: Double, at time: MonotonicInstant) -> Double {
        let curve = loadingOhms(newtons: force)
        guard curve.isFinite else { return curve }
        var factor = 1 - parameters.hysteresis * unloading
        if let since = loadedSince {
            let seconds = Double(time.nanoseconds(since: since)) / 1e9
            factor *= max(0.5, 1 - parameters.creepPerDecade * log10(1 + seconds / parameters.creepOnsetSeconds))
        }
        return curve * factor
    }
}

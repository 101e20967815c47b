/// Tuning of the spike stage and the adaptive (fast-step) filter.
public struct FilterTuning: Hashable, Sendable {
    /// Samples in the spike-rejection (Hampel) window; 1 switches it off.
    public var spikeWindow: Int = 5
    /// A sample further than this many scaled median absolute deviations from the window's
    /// median is replaced by the median (3: Hampel's usual choice).
    public var spikeThreshold: Double = 3
    /// Deviations smaller than this many divisions are never spikes, so quantised signals with
    /// a zero deviation are not treated as all-spike.
    public var spikeFloor: Double = 2
    /// Most samples the steady-state average spans (16 at 80 SPS: a 0.2 s time constant).
    public var averagingSamples: Int = 16
    /// A jump of more than this many divisions restarts the average at the new value.
    public var stepThreshold: Double = 4

    public init() {}

    public func validate() -> Result<Void, Refusal> {
        guard (1...31).contains(spikeWindow) else {
            return .failure(Refusal(.invalidConfiguration, "spike window \(spikeWindow) is outside 1 ... 31 samples", hint: "use 5 (1 turns spike rejection off)"))
        }
        guard spikeThreshold > 0, spikeFloor >= 0 else {
            return .failure(Refusal(.invalidConfiguration, "spike threshold or floor is not positive", hint: "use threshold 3 and floor 2 d"))
        }
        guard (1...4096).contains(averagingSamples) else {
            return .failure(Refusal(.invalidConfiguration, "averaging over \(averagingSamples) samples is outside 1 ... 4096", hint: "use 16 at 80 SPS or 4 at 10 SPS"))
        }
        guard stepThreshold.isFinite, stepThreshold > 0 else {
            return .failure(Refusal(.invalidConfiguration, "step threshold \(stepThreshold) d is not positive", hint: "use 4 d"))
        }
        return .success(())
    }
}

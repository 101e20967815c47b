/// A causal Hampel filter: a sample far from the median of the last few is replaced by that
/// median.
///
/// A single glitch (a bit slip on the HX711's serial line, a knock on the bench) never reaches
/// the average. A real step passes once half the window has moved to the new level, so the
/// window is set by how long a change may be held back as a possible spike (the hold time),
/// not by a count: `2·h + 1` samples with h = hold ÷ sample interval, at least 1. With the
/// default 25 ms hold that is 5 samples at 80 SPS (a step held for 2 samples, 25 ms) and 3 at
/// 10 SPS (held for 1 sample, the least a spike test can cost). The interval is the median of
/// the last few intervals between samples, so a dropped conversion does not change the window.
public struct SpikeFilter: Sendable {
    /// The largest window, in samples.
    public static let maximumWindow = 31

    /// How long a sudden change may be held back, in nanoseconds.
    public let holdTime: UInt64
    private let threshold: Double
    private var ring: [Double]
    /// Which samples in the ring were held back as possible spikes and not yet judged.
    private var held: [Bool]
    /// What the filter gave for each sample in the ring.
    private var outputs: [Double]
    private var scratch: [Double]
    private var next = 0
    private var count = 0
    private var intervals = [UInt64](repeating: 0, count: 9)
    private var sortedIntervals = [UInt64](repeating: 0, count: 9)
    private var intervalCount = 0
    private var lastTime: UInt64?
    /// The samples the median is taken over now.
    public private(set) var window = 3

    /// - Parameters:
    ///   - holdTime: nanoseconds a sudden change may be held back; 0 switches the filter off.
    ///   - threshold: how many scaled median absolute deviations make a spike.
    public init(holdTime: UInt64, threshold: Double) {
        self.holdTime = holdTime
        self.threshold = threshold
        ring = Array(repeating: 0, count: Self.maximumWindow)
        held = Array(repeating: false, count: Self.maximumWindow)
        outputs = Array(repeating: 0, count: Self.maximumWindow)
        scratch = Array(repeating: 0, count: Self.maximumWindow)
        window = holdTime == 0 ? 1 : 3
    }

    /// Forgets the samples, for example after a calibration change; the sample interval stays.
    public mutating func reset() {
        next = 0
        count = 0
        for index in held.indices { held[index] = false }
    }

    /// Returns `x`, or the window's median when `x` is a spike.
    ///
    /// - Parameters:
    ///   - time: the sample's monotonic time in nanoseconds.
    ///   - floor: deviations up to this size are never spikes (same unit as `x`).
    ///   - noise: the signal's measured rms noise, when known: the spread a spike is judged by,
    ///     in place of the window's own. Two spikes close together raise the window's median
    ///     absolute deviation to their size, and a third within the window then passed as a
    ///     step and reached the display.
    public mutating func process(_ x: Double, time: UInt64, floor: Double, noise: Double = 0) -> Double {
        observeInterval(time)
        let slot = next
        ring[slot] = x
        held[slot] = false
        next = (next + 1) % ring.count
        count = min(count + 1, ring.count)
        let size = min(count, window)
        guard size >= 3 else {
            outputs[slot] = x
            return x
        }
        let median = medianOfLast(size) { $0 }
        // 1.4826 × MAD estimates the standard deviation of Gaussian noise. The window's own
        // spread lets a ringing pan through sooner; the measured noise keeps a window whose
        // spread is only knocks from letting the next one through.
        let spread = max(noise, 1.4826 * medianOfLast(size) { abs($0 - median) })
        let limit = max(threshold * spread, floor)
        let output = judge(x, slot: slot, size: size, median: median, limit: limit, noise: noise, floor: floor)
        outputs[slot] = output
        return output
    }

    /// The filter's answer for `x`, the newest sample, at `slot` (above).
    private mutating func judge(
        _ x: Double, slot: Int, size: Int, median: Double, limit: Double, noise: Double, floor: Double
    ) -> Double {
        // What counts as one level between samples: the noise when it is measured.
        let same = noise > 0 ? max(threshold * noise, floor) : limit
        if abs(x - median) > limit {
            held[slot] = true
            // The window's median stands in for it, unless every earlier sample in the window
            // was held back and this one is back at the last output: then the held ones were
            // knocks, their median is theirs, and the level is where the signal came back to.
            // At 10 SPS two knocks in a row (+28 g, +25 g: too far apart to be one step) were
            // both held, and the sample after them, back at the load, was replaced by their
            // median: 25 g on the display for a conversion. (A step's ringing samples, also all
            // held, are far from the last output, and their median still stands in.)
            let last = outputs[(slot - 1 + ring.count) % ring.count]
            if levelNotHeld(size: size, slot: slot) == nil, abs(x - last) <= same { return last }
            return median
        }
        // Knocks are told from steps only on a signal that was at rest: on a swinging pan every
        // sample is far from the last, and holding them would show a still load.
        var low = Double.infinity
        var high = -Double.infinity
        for back in 1..<size {
            let earlier = (slot - back + ring.count) % ring.count
            (low, high) = (min(low, outputs[earlier]), max(high, outputs[earlier]))
        }
        guard high - low <= 2 * same else { return x }
        // The level the samples not held back show, x left out (the last output if all were).
        let reference = levelNotHeld(size: size, slot: slot) ?? outputs[(slot - 1 + ring.count) % ring.count]
        if abs(x - reference) <= same {
            // The signal is back where it was, so a sample held back that is still far from it
            // was a knock, not the start of a step: it stops voting. Left in the window, it and
            // the next knock made a majority of three at 10 SPS, and passed as a new load.
            for back in 1..<size {
                let earlier = (slot - back + ring.count) % ring.count
                if held[earlier], abs(ring[earlier] - reference) > same {
                    (ring[earlier], held[earlier]) = (reference, false)
                }
            }
            return x
        }
        // The median has moved to x only with samples held back: a step's samples agree with
        // each other, to the noise or to a tenth of the step while the pan still rings; two
        // knocks of 5 to 50 g rarely do (at 10 SPS, where one conversion is held, two in a row
        // the same way passed as a new load for two conversions).
        var anyHeld = false
        var supported = false
        let agreement = max(2 * same, abs(x - reference) / 10)
        for back in 1..<size {
            let earlier = (slot - back + ring.count) % ring.count
            guard held[earlier] else { continue }
            anyHeld = true
            if abs(ring[earlier] - x) <= agreement { supported = true }
        }
        guard !anyHeld || supported else {
            held[slot] = true
            return reference
        }
        return x
    }

    /// The median of the window's samples before the newest that were not held back, if any.
    private mutating func levelNotHeld(size: Int, slot: Int) -> Double? {
        var count = 0
        for back in 1..<size {
            let earlier = (slot - back + ring.count) % ring.count
            if !held[earlier] {
                scratch[count] = ring[earlier]
                count += 1
            }
        }
        guard count > 0 else { return nil }
        scratch[0..<count].sort()
        return count % 2 == 1 ? scratch[count / 2] : (scratch[count / 2 - 1] + scratch[count / 2]) / 2
    }

    private mutating func observeInterval(_ time: UInt64) {
        defer { lastTime = time }
        guard holdTime > 0, let last = lastTime, time > last else { return }
        intervals[intervalCount % intervals.count] = time - last
        intervalCount += 1
        let known = min(intervalCount, intervals.count)
        for i in 0..<known { sortedIntervals[i] = intervals[i] }
        sortedIntervals[0..<known].sort()
        let interval = sortedIntervals[known / 2]
        // Round half up: a hold of exactly two intervals holds two samples.
        let held = max(1, (holdTime + interval / 2) / interval)
        window = Int(min(UInt64(Self.maximumWindow), 2 * held + 1))
    }

    private mutating func medianOfLast(_ size: Int, _ transform: (Double) -> Double) -> Double {
        for i in 0..<size { scratch[i] = transform(ring[(next - 1 - i + ring.count) % ring.count]) }
        scratch[0..<size].sort()
        let middle = size / 2
        return size % 2 == 1 ? scratch[middle] : (scratch[middle - 1] + scratch[middle]) / 2
    }
}

/// The noise of a signal in its own units, measured from the signal itself: what "stable" is
/// judged against before a calibration says what a gram is.
///
/// Two estimates are made of each block of ``blockSize`` successive differences:
/// - a robust one, the median absolute deviation of the differences about their median,
///   ÷ (0.6745 · √2). The median leaves out steps and knocks, but one block knows σ only to
///   about ±34 %;
/// - an efficient one, the mean square of the differences about their mean, leaving out any more
///   than 4 robust σ√2 from their median (a spike's two differences, a step's one), the mean
///   then taken of those kept alone. The mean of a block's differences is its end-to-end change
///   ÷ 16, so a steady drift or ramp is removed and the sum loses almost nothing: its expectation
///   is 2σ² (n − 1/n) for n differences.
///
/// A pan that is moved for a while still raises some blocks, so the robust estimates choose the
/// blocks that are rest: their lower quartile over the last ``blockCount`` blocks (÷ its mean for
/// Gaussian noise, ``lowerQuartileMean``) gives σ to about 10 %, and every block whose own
/// robust estimate is within 2.5 times that is pooled. σ is the pooled blocks' mean square:
/// good to about 0.22 / √blocks, where the lower quartile alone was good to 0.46 / √blocks
/// (k blocks of 16 correlated differences hold about 21 k degrees of freedom). At 10 SPS the
/// difference matters: six blocks are 10 s, and the lower quartile of six was low by a third on
/// some seeds, which made ordinary draws look like a load moving (issue 25).
///
/// The signal's quantum (the smallest change seen again and again, one LSB for a quiet ADC) is
/// kept too, so a signal too quiet to show noise still gets a band of a few codes. A change seen
/// once is not a quantum: on a signal that never moved before (an emulated chip's exact codes,
/// an FSR at rest), the first change is the load being placed, and taking it for the quantum
/// would call that very step stable.
///
/// Blocks are counts of samples, not times: they are statistics, and 16 differences give an
/// estimate good to about 22 % at any rate (the first after 0.2 s at 80 SPS, 1.6 s at 10 SPS);
/// 32 blocks remember 6.4 s at 80 SPS and 51 s at 10 SPS.
public struct SignalNoise: Sendable {
    public static let blockSize = 16
    public static let blockCount = 32
    /// What the lower quartile of k block estimates averages, in σ, for k = 1 ... 32: a block's
    /// estimate spreads by about 0.34 σ, and the chosen order statistic of k of them averages
    /// 1 + 0.341 Φ⁻¹((i + 0.625) / (k + 0.25)), i = (k − 1) / 4 (Blom). 0.755 at 32 blocks; the
    /// first block alone is its own mean, which dividing it by 0.755 overstated by a third.
    static let lowerQuartileMean: [Double] = [
        1.000, 0.799, 0.704, 0.642, 0.830, 0.781, 0.741, 0.709,
        0.805, 0.777, 0.752, 0.730, 0.795, 0.775, 0.757, 0.740,
        0.789, 0.774, 0.759, 0.746, 0.786, 0.773, 0.761, 0.750,
        0.783, 0.773, 0.763, 0.753, 0.781, 0.772, 0.764, 0.755
    ]

    private var last: Double?
    private var differences: [Double]
    private var scratch: [Double]
    private var filled = 0
    /// Each block's robust estimate, and its clipped sum of squares about the mean with the
    /// number of differences in it (above).
    private var blocks: [Double]
    private var sums: [Double]
    private var kept: [Int]
    /// Blocks of ``blockSize`` differences measured so far.
    public private(set) var blocksSeen = 0
    /// How many times a change between successive samples must be seen, at the scale of the
    /// smallest, before it is taken as the signal's quantum.
    public static let quantumSightings = 4
    /// The smallest non-zero change between successive samples seen so far, and how many changes
    /// at its scale (within 1.5 times) have been seen.
    private var smallestChange: Double?
    private var smallestChangeSightings = 0
    /// The signal's quantum: the smallest non-zero change between successive samples, once it
    /// has been seen ``quantumSightings`` times; `nil` before.
    public var quantum: Double? {
        smallestChangeSightings >= Self.quantumSightings ? smallestChange : nil
    }

    public init() {
        differences = Array(repeating: 0, count: Self.blockSize)
        scratch = Array(repeating: 0, count: max(Self.blockSize, Self.blockCount))
        blocks = Array(repeating: 0, count: Self.blockCount)
        sums = Array(repeating: 0, count: Self.blockCount)
        kept = Array(repeating: 0, count: Self.blockCount)
    }

    /// The relative standard error of ``sigma`` after `blocks` blocks of rest (above).
    public static func relativeError(blocks: Int) -> Double { 0.22 / Double(max(1, blocks)).squareRoot() }

    /// The noise's standard deviation in the signal's units, or `nil` before the first block.
    public private(set) var sigma: Double?

    /// The unit the engine judges an uncalibrated signal in, standing in for the division d:
    /// 4 σ, at least 2 quanta. A well-chosen division is about 3 σ of noise; 4 σ leaves room for
    /// the estimate's 10 %, so noise alone neither breaks stability nor trips the filter's
    /// shift detector (half a unit per sample), while a pan still moving by more than the
    /// noise does. `nil` until the noise is known.
    public var unit: Double? {
        guard let sigma else { return nil }
        return max(4 * sigma, 2 * (quantum ?? 0))
    }

    /// Forgets the samples and estimates (a different sensor or rate).
    public mutating func reset() { self = SignalNoise() }

    /// Adds one sample; non-finite samples are skipped and break the chain of differences.
    public mutating func add(_ x: Double) {
        guard x.isFinite else {
            last = nil
            return
        }
        defer { last = x }
        guard let last else { return }
        let difference = x - last
        if difference != 0 { sawChange(abs(difference)) }
        differences[filled] = difference
        filled += 1
        guard filled == Self.blockSize else { return }
        filled = 0
        let slot = blocksSeen % Self.blockCount
        let (robustSigma, median) = blockSigma()
        blocks[slot] = robustSigma
        (sums[slot], kept[slot]) = blockSquares(around: median, limit: 4 * robustSigma * 2.0.squareRoot())
        blocksSeen += 1
        let known = min(blocksSeen, Self.blockCount)
        for i in 0..<known { scratch[i] = blocks[i] }
        scratch[0..<known].sort()
        let robust = scratch[(known - 1) / 4] / Self.lowerQuartileMean[known - 1]
        // A signal too quiet for its median to move (exact codes) keeps the robust zero: its
        // quantum stands in for noise (``unit``).
        guard robust > 0 else {
            sigma = robust
            return
        }
        var sum = 0.0
        var degrees = 0.0
        for i in 0..<known where blocks[i] <= 2.5 * robust && kept[i] > 1 {
            sum += sums[i]
            degrees += 2 * (Double(kept[i]) - 1 / Double(Self.blockSize))
        }
        sigma = degrees > 0 ? (sum / degrees).squareRoot() : robust
    }

    /// The sum of squares of the block's differences about their mean, leaving out those more
    /// than `limit` from their median, and how many were kept.
    ///
    /// Which differences are kept is judged about the median, and the mean is that of the kept
    /// ones alone: a knock or a step puts one difference of many σ in a block, and the mean of
    /// all sixteen moved by a sixteenth of it. A 6.4 g knock on the first sample of a cell with
    /// 0.1 g of noise moved it by 0.4 g, within the limit of every other difference, and σ read
    /// 0.24 g for the next 51 s at 10 SPS: the power-up zero waited for an average 5.6 times
    /// deeper, and a plum placed at 7 s was not stable for its first 2 s at rest.
    private func blockSquares(around median: Double, limit: Double) -> (Double, Int) {
        var mean = 0.0
        var count = 0
        for difference in differences where abs(difference - median) <= limit {
            mean += difference
            count += 1
        }
        guard count > 0 else { return (0, 0) }
        mean /= Double(count)
        var sum = 0.0
        for difference in differences where abs(difference - median) <= limit {
            sum += (difference - mean) * (difference - mean)
        }
        return (sum, count)
    }

    private mutating func sawChange(_ size: Double) {
        guard let smallest = smallestChange else {
            (smallestChange, smallestChangeSightings) = (size, 1)
            return
        }
        if size * 1.5 < smallest {
            // A smaller scale: the smaller change starts its own count.
            (smallestChange, smallestChangeSightings) = (size, 1)
        } else if size <= smallest * 1.5 {
            smallestChangeSightings += 1
            smallestChange = min(smallest, size)
        }
    }

    /// The block's robust σ, and the median of its differences.
    private mutating func blockSigma() -> (sigma: Double, median: Double) {
        for i in 0..<Self.blockSize { scratch[i] = differences[i] }
        scratch[0..<Self.blockSize].sort()
        let median = (scratch[Self.blockSize / 2 - 1] + scratch[Self.blockSize / 2]) / 2
        for i in 0..<Self.blockSize { scratch[i] = abs(differences[i] - median) }
        scratch[0..<Self.blockSize].sort()
        let mad = (scratch[Self.blockSize / 2 - 1] + scratch[Self.blockSize / 2]) / 2
        // For Gaussian noise of σ, a difference has σ√2 and its MAD is 0.6745 σ√2.
        return (mad / (0.6745 * 2.0.squareRoot()), median)
    }
}

/// The noise of a signal in its own units, measured from the signal itself: what "stable" is
/// judged against before a calibration says what a gram is.
///
/// Each block of ``blockSize`` successive differences gives a robust estimate: the median
/// absolute deviation of the differences about their median, ÷ (0.6745 · √2). Taking the
/// differences about their median leaves out a steady drift or ramp, and the median leaves out
/// steps and knocks. A pan that is moved for a while still raises some blocks, so the estimate
/// is the lower quartile of the last ``blockCount`` blocks (the sensor's own noise, which rest
/// periods show), divided by 0.755: for Gaussian noise the lower quartile of 32 such estimates
/// averages 0.755 σ (±0.066 σ), so the result is σ within about 10 %. The signal's quantum
/// (the smallest change seen, one LSB for a quiet ADC) is kept too, so a signal too quiet to
/// show noise still gets a band of a few codes.
///
/// Blocks are counts of samples, not times: they are statistics, and 16 differences give an
/// estimate good to about 30 % at any rate (the first after 0.2 s at 80 SPS, 1.6 s at 10 SPS);
/// 32 blocks remember 6.4 s at 80 SPS and 51 s at 10 SPS.
public struct SignalNoise: Sendable {
    public static let blockSize = 16
    public static let blockCount = 32

    private var last: Double?
    private var differences: [Double]
    private var scratch: [Double]
    private var filled = 0
    private var blocks: [Double]
    private var blocksSeen = 0
    /// The smallest non-zero change between successive samples seen so far.
    public private(set) var quantum: Double?

    public init() {
        differences = Array(repeating: 0, count: Self.blockSize)
        scratch = Array(repeating: 0, count: max(Self.blockSize, Self.blockCount))
        blocks = Array(repeating: 0, count: Self.blockCount)
    }

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
        if difference != 0, abs(difference) < (quantum ?? .infinity) { quantum = abs(difference) }
        differences[filled] = difference
        filled += 1
        guard filled == Self.blockSize else { return }
        filled = 0
        blocks[blocksSeen % Self.blockCount] = blockSigma()
        blocksSeen += 1
        let known = min(blocksSeen, Self.blockCount)
        for i in 0..<known { scratch[i] = blocks[i] }
        scratch[0..<known].sort()
        sigma = scratch[(known - 1) / 4] / 0.755
    }

    private mutating func blockSigma() -> Double {
        for i in 0..<Self.blockSize { scratch[i] = differences[i] }
        scratch[0..<Self.blockSize].sort()
        let median = (scratch[Self.blockSize / 2 - 1] + scratch[Self.blockSize / 2]) / 2
        for i in 0..<Self.blockSize { scratch[i] = abs(differences[i] - median) }
        scratch[0..<Self.blockSize].sort()
        let mad = (scratch[Self.blockSize / 2 - 1] + scratch[Self.blockSize / 2]) / 2
        // For Gaussian noise of σ, a difference has σ√2 and its MAD is 0.6745 σ√2.
        return mad / (0.6745 * 2.0.squareRoot())
    }
}

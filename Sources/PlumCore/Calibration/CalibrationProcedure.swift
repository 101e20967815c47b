/// The multi-step calibration a daemon drives: begin → zero → add point … → commit or cancel.
///
/// Each capture waits for the load to be stable and then averages `captureSamples` signals;
/// if the load moves during the capture, the capture starts over. The procedure only collects
/// points; ``fit(configuration:createdAt:)`` turns them into a calibration or a refusal.
public struct CalibrationProcedure: Hashable, Sendable {
    /// Where the procedure stands.
    public enum Step: Hashable, Sendable {
        /// Empty the pan and ask for zero.
        case needZero
        /// Waiting for stable, then averaging, for this known weight (0 for zero).
        case capturing(grams: Double)
        /// Points captured so far; add another weight or commit.
        case ready(points: Int)
    }

    public let sensor: SensorIdentity
    public let kind: SensorKind
    public let quadratic: Bool
    /// Signals averaged per point once stable.
    public let captureSamples: Int
    public private(set) var step: Step = .needZero
    public private(set) var points: [CalibrationPoint] = []
    /// While capturing a known weight: the grams of an earlier point whose load is still on the
    /// pan (the stable signal matches it), so the capture keeps waiting for the new weight.
    public private(set) var unchangedSince: Double?
    private var sum = 0.0
    private var sumOfSquares = 0.0
    private var count = 0
    private var reference = 0.0

    public init(sensor: SensorIdentity, kind: SensorKind, quadratic: Bool = false, captureSamples: Int = 24) {
        self.sensor = sensor
        self.kind = kind
        self.quadratic = quadratic
        self.captureSamples = max(2, captureSamples)
    }

    /// Starts capturing the empty pan (also to redo zero). Refused during another capture.
    public mutating func captureZero() -> Result<Void, Refusal> {
        if case .capturing(let grams) = step {
            return .failure(
                Refusal(.wrongStep, "a capture of \(grams) g is still running", hint: "wait for it to finish or cancel")
            )
        }
        points.removeAll { $0.grams == 0 }
        startCapture(grams: 0)
        return .success(())
    }

    /// Starts capturing a known weight, after zero.
    public mutating func capturePoint(grams: Double) -> Result<Void, Refusal> {
        switch step {
        case .needZero:
            return .failure(Refusal(.wrongStep, "no zero captured yet", hint: "empty the pan and capture zero first"))
        case .capturing(let running):
            return .failure(
                Refusal(
                    .wrongStep, "a capture of \(running) g is still running", hint: "wait for it to finish or cancel"))
        case .ready:
            guard grams.isFinite, grams > 0 else {
                return .failure(
                    Refusal(
                        .invalidWeight, "known weight \(grams) g is not a positive number",
                        hint: "enter the mass of the weight on the pan in grams"))
            }
            startCapture(grams: grams)
            return .success(())
        }
    }

    /// Feeds one sample; returns the point when a capture completes.
    /// Abandons a capture that is still waiting for stable (the daemon's wait timed out); the
    /// points captured so far are kept.
    public mutating func cancelCapture() {
        guard case .capturing = step else { return }
        unchangedSince = nil
        resetAccumulator()
        step = points.isEmpty ? .needZero : .ready(points: points.count)
    }

    public mutating func observe(signal: Double, stable: Bool) -> CalibrationPoint? {
        guard case .capturing(let grams) = step else { return nil }
        guard stable, signal.isFinite else {
            resetAccumulator()
            return nil
        }
        // Accumulate around the first value so the variance of large counts keeps its digits.
        if count == 0 { reference = signal }
        let deviation = signal - reference
        sum += deviation
        sumOfSquares += deviation * deviation
        count += 1
        guard count >= captureSamples else { return nil }
        let n = Double(count)
        let mean = sum / n
        let variance = max(0, (sumOfSquares - n * mean * mean) / (n - 1))
        let point = CalibrationPoint(
            grams: grams, signal: reference + mean, noise: variance.squareRoot(), samples: count)
        if let earlier = stillLoaded(point) {
            // The weight has not been placed yet: a script that sends every point at once, or a
            // person slower than the daemon. Wait for the load to change instead of recording
            // the old load under the new weight's grams.
            unchangedSince = earlier.grams
            resetAccumulator()
            return nil
        }
        points.append(point)
        resetAccumulator()
        step = .ready(points: points.count)
        return point
    }

    /// Fits the captured points.
    public func fit(configuration: ScaleConfiguration, createdAt: String) -> Result<Calibration, Refusal> {
        if case .capturing(let grams) = step {
            return .failure(
                Refusal(
                    .wrongStep, "a capture of \(grams) g is still running",
                    hint: "wait for it to finish before committing"))
        }
        return CalibrationFit.fit(
            points: points, sensor: sensor, kind: kind, configuration: configuration, quadratic: quadratic,
            createdAt: createdAt)
    }

    /// The earlier point, of other grams, that `point` cannot be told apart from: its mean is
    /// within four standard deviations of the two captures' combined noise. Two captures of one
    /// load differ by about a third of a standard deviation; a real new weight moves the signal
    /// by far more than four, or its fit is refused anyway as noise larger than the step.
    func stillLoaded(_ point: CalibrationPoint) -> CalibrationPoint? {
        guard point.grams > 0 else { return nil }
        return points.last { earlier in
            guard earlier.grams != point.grams else { return false }
            let noise = (earlier.noise * earlier.noise + point.noise * point.noise).squareRoot()
            let tolerance = max(4 * noise, 1e-9 * max(abs(point.signal), 1))
            return abs(point.signal - earlier.signal) <= tolerance
        }
    }

    private mutating func startCapture(grams: Double) {
        unchangedSince = nil
        resetAccumulator()
        step = .capturing(grams: grams)
    }

    private mutating func resetAccumulator() {
        sum = 0
        sumOfSquares = 0
        count = 0
    }
}

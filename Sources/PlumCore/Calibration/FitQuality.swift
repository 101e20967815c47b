/// How well a calibration fits its own points, in grams and in plain words.
public struct FitQuality: Hashable, Sendable, Codable {
    /// A verdict a maker can act on.
    public enum Grade: String, Hashable, Sendable, Codable {
        /// Load cell: every residual within 1 d. FSR: RMS relative error within 5 %.
        case good
        /// Load cell: within 5 d. FSR: within 25 % (the FSR 402 datasheet's part-to-part band).
        case acceptable
        /// Worse: check the weights, the mounting and the warm-up, then calibrate again.
        case poor
        /// No point to spare: a line through zero and one known weight passes through both
        /// exactly, so its residuals are zero whatever was on the pan. A third point checks it.
        case notChecked = "not-checked"
    }

    /// Root mean square of the residuals, grams.
    public var rmsResidual: Double
    /// Largest absolute residual, grams.
    public var maxResidual: Double
    /// RMS of residual / known weight over the loaded points, as a fraction (0.05 = 5 %).
    public var rmsRelativeResidual: Double
    public var grade: Grade
    /// One sentence on what the figures mean for this sensor, with ``warning`` when there is one.
    public var summary: String
    /// Why the fit should be confirmed before it is saved: its signal per gram lies far from
    /// what the sensor's profile makes plausible (a weight typed wrong). Nil when plausible or
    /// when no profile says.
    public var warning: String?

    public init(
        rmsResidual: Double, maxResidual: Double, rmsRelativeResidual: Double, grade: Grade, summary: String,
        warning: String? = nil
    ) {
        self.rmsResidual = rmsResidual
        self.maxResidual = maxResidual
        self.rmsRelativeResidual = rmsRelativeResidual
        self.grade = grade
        self.summary = summary
        self.warning = warning
    }
}

/// Why the engine would not do what it was asked, in plain words, with what to do instead.
///
/// Commands (zero, tare, calibration steps), fits and configuration checks return this value
/// instead of trapping or printing. `description` reads as one sentence for a log line or a
/// client error, for example
/// `zero refused: load is 42.0 g, outside the ±7.7 g zero range — use tare`.
public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason for clients and tests.
    public enum Code: String, Hashable, Sendable, Codable {
        case invalidConfiguration
        case notStable
        case outsideZeroRange
        case uncalibrated
        case overload
        case underload
        case negativeTare
        case noProcedure
        case wrongStep
        case invalidWeight
        case tooFewPoints
        case spanTooSmall
        case pointsTooClose
        case nonMonotone
        case noiseLargerThanStep
        case fitFailed
        case invalidProfile
        /// The sensor delivers no samples (not ready, a fault): nothing current to act on.
        case sensorUnavailable
    }

    public var code: Code
    /// What was refused and the fact that made it impossible.
    public var reason: String
    /// What the user can do about it.
    public var hint: String

    public init(_ code: Code, _ reason: String, hint: String) {
        self.code = code
        self.reason = reason
        self.hint = hint
    }

    public var description: String { "\(reason) — \(hint)" }
}

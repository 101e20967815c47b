/// The state machine of one ``AlertRule``, fed every reading of its sensor.
///
/// - A **valid** reading (calibrated, with a net weight, neither overload nor underload) that
///   meets the condition starts the hold; when the condition has held on every valid reading
///   for ``AlertRule/holdNanoseconds``, the alert becomes active.
/// - A valid reading that does not meet the condition ends the hold. An active alert clears
///   only when the weight is back past the threshold by the hysteresis, so a weight that
///   hovers around the threshold does not flap.
/// - An **invalid** reading changes nothing that was decided: an active alert stays active
///   and a clear one stays clear. It restarts a hold in progress, since the condition was not
///   seen to hold throughout.
public struct AlertState: Hashable, Sendable {
    public let rule: AlertRule
    /// The alert is raised.
    public private(set) var isActive = false
    /// The net grams of the reading that last changed ``isActive`` (nil before any change).
    public private(set) var grams: Double?
    /// Since when the condition has held on valid readings, while not yet active.
    public private(set) var holdingSince: UInt64?

    public init(rule: AlertRule) {
        self.rule = rule
    }

    /// What one reading did to the alert.
    public enum Change: Hashable, Sendable {
        case raised(grams: Double)
        case cleared(grams: Double)
    }

    /// Runs the rule on one reading.
    /// - Parameters:
    ///   - grams: the net weight, or nil when the reading is invalid.
    ///   - time: the reading's monotonic time in nanoseconds.
    /// - Returns: the change, when the alert was raised or cleared.
    public mutating func update(grams: Double?, time: UInt64) -> Change? {
        guard let grams, grams.isFinite else {
            holdingSince = nil
            return nil
        }
        if isActive {
            guard rule.isCleared(by: grams) else { return nil }
            isActive = false
            self.grams = grams
            return .cleared(grams: grams)
        }
        guard rule.isMet(by: grams) else {
            holdingSince = nil
            return nil
        }
        let since = holdingSince ?? time
        holdingSince = since
        guard time >= since, time - since >= rule.holdNanoseconds else { return nil }
        isActive = true
        holdingSince = nil
        self.grams = grams
        return .raised(grams: grams)
    }

    /// Runs the rule on an engine reading: valid when calibrated, with a net weight, and
    /// neither overload nor underload.
    public mutating func update(_ reading: Reading) -> Change? {
        let valid = reading.isCalibrated && !reading.isOverload && !reading.isUnderload
        return update(grams: valid ? reading.net : nil, time: reading.time)
    }
}

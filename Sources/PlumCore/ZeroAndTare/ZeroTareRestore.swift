/// Whether a saved zero and tare are restored at start: a pure decision on the first stable
/// reading after warm-up, made by ``WeighingEngine`` once ``WeighingEngine/restoreZeroTare(_:)``
/// was called. Only what still explains the load is kept (docs/engine.md, "Zero and tare over
/// a restart"):
///
/// - nothing, when the calibration is another, or the saved values lie outside this
///   configuration's ranges (zero within the zero range of a power-up zero that lies within
///   the initial zero-setting range, tare within ``ScaleConfiguration/tareRange``);
/// - the tare, only when the gross load from the saved zero is within
///   ``tareToleranceDivisions`` d of it: the container is still on the pan. Otherwise it was
///   taken off (or something else put on) while the scale was off, and the tare is dropped;
/// - the zero, only when a kept tare vouches for it, or the pan, with no tare, lies within the
///   zero range of it. Otherwise the pan holds a load the zero cannot explain, or the zero
///   drifted beyond the range, and the zero is dropped too.
///
/// Whatever is dropped, initial zero-setting runs as configured; on an empty pan it also runs
/// after a kept zero, since it is a power-up (OIML R 76-1 4.5.1), so that drift since the stop
/// is not left as a standing offset.
public enum ZeroTareRestore: Hashable, Sendable {
    /// The zero (and the tare, when not 0) restored.
    case restored(zeroOffset: Double, tare: Double)
    /// The zero restored, the tare dropped; `reason` says why, e.g. "tare 12.0 g dropped: the
    /// pan is 12.0 g lighter than the tare".
    case zeroOnly(zeroOffset: Double, reason: String)
    /// Nothing restored, for `reason`.
    case discarded(reason: String)

    /// How close, in divisions, the gross load at start must be to a saved tare to keep it: the
    /// zero may have drifted a little while the scale was off (R 76-1 4.5.2 asks zero within
    /// ±0.25 e; a few d leaves room for a cooled cell), while any container differs by far more.
    public static let tareToleranceDivisions = 5.0

    /// A short name for reports: `restored`, `tare-dropped` or `discarded`.
    public var name: String {
        switch self {
        case .restored: "restored"
        case .zeroOnly: "tare-dropped"
        case .discarded: "discarded"
        }
    }

    /// The zero restored, if any.
    public var zeroOffset: Double? {
        switch self {
        case .restored(let zero, _), .zeroOnly(let zero, _): zero
        case .discarded: nil
        }
    }

    /// - Parameters:
    ///   - load: the first stable filtered load in grams from calibrated zero.
    public static func decide(
        saved: ZeroTareState, calibration: Calibration?, configuration: ScaleConfiguration, load: Double
    ) -> ZeroTareRestore {
        let format = { (grams: Double) in configuration.division.format(grams) + " g" }
        guard let calibration else { return .discarded(reason: "the sensor is not calibrated") }
        guard saved.calibration.matches(calibration) else {
            return .discarded(
                reason:
                    "they were set under the calibration of \(saved.calibration.createdAt); the one in use is of "
                    + "\(calibration.createdAt)"
            )
        }
        let range = configuration.zeroRange
        guard saved.zeroReference.isFinite, abs(saved.zeroReference) <= configuration.initialZeroRange,
            saved.zeroOffset.isFinite, abs(saved.zeroOffset - saved.zeroReference) <= range * (1 + 1e-9)
        else {
            return .discarded(
                reason:
                    "the saved zero \(format(saved.zeroOffset)) is outside the ±\(format(range)) zero range of its "
                    + "power-up zero \(format(saved.zeroReference))"
            )
        }
        guard saved.tare.isFinite, configuration.tareRange.contains(saved.tare) else {
            return .discarded(
                reason:
                    "the saved tare \(format(saved.tare)) is outside \(format(configuration.tareRange.lowerBound)) … "
                    + "\(format(configuration.tareRange.upperBound))")
        }
        let gross = load - saved.zeroOffset
        var tareDropped: String?
        if saved.tare > 0 {
            let difference = gross - saved.tare
            if abs(difference) <= tareToleranceDivisions * configuration.division.grams {
                return .restored(zeroOffset: saved.zeroOffset, tare: saved.tare)
            }
            let way = difference < 0 ? "lighter" : "heavier"
            tareDropped =
                "tare \(format(saved.tare)) dropped: the pan is \(format(abs(difference))) \(way) than the tare"
        }
        guard abs(gross) <= range else {
            let zero =
                "zero \(format(saved.zeroOffset)) dropped: the pan is \(format(gross)) from it, outside the "
                + "±\(format(range)) zero range"
            return .discarded(reason: tareDropped.map { $0 + "; " + zero } ?? zero)
        }
        if let tareDropped { return .zeroOnly(zeroOffset: saved.zeroOffset, reason: tareDropped) }
        return .restored(zeroOffset: saved.zeroOffset, tare: 0)
    }

    /// One sentence for people: what was restored, or what was dropped and why.
    public var summary: String {
        switch self {
        case .restored(_, let tare) where tare > 0: "zero and tare restored"
        case .restored: "zero restored"
        case .zeroOnly(_, let reason): reason + "; zero restored"
        case .discarded(let reason): "zero and tare not restored: " + reason
        }
    }
}

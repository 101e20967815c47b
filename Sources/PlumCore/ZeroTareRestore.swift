/// Whether a saved zero and tare are restored at start: a pure decision on the first stable
/// reading, made by ``WeighingEngine`` once ``WeighingEngine/restoreZeroTare(_:)`` was called.
///
/// Restored only when all of these hold:
/// - the sensor is calibrated, with the calibration they were set under (``CalibrationReference``);
/// - the saved zero lies in this configuration's zero range and the tare in 0 … capacity;
/// - the load at start, from the restored zero, is in the range the scale shows (not below
///   −4 % of Max, not above Max + 9 d).
///
/// The tare alone is dropped, and the zero kept, when the net load would read below the zero
/// range: the container was taken off while the scale was off, and restoring its tare would
/// show minus its weight. When anything is restored, initial zero-setting does not run (the
/// restored zero is the newer one); when nothing is, it runs as configured.
public enum ZeroTareRestore: Hashable, Sendable {
    case restored(zeroOffset: Double, tare: Double)
    /// The zero was restored, the tare dropped, for `reason`.
    case zeroOnly(zeroOffset: Double, reason: String)
    /// Nothing was restored, for `reason`.
    case discarded(reason: String)

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
        guard saved.zeroOffset.isFinite, abs(saved.zeroOffset) <= configuration.zeroRange else {
            return .discarded(
                reason:
                    "the saved zero \(format(saved.zeroOffset)) is outside the ±\(format(configuration.zeroRange)) "
                    + "zero range"
            )
        }
        guard saved.tare.isFinite, saved.tare >= 0, saved.tare <= configuration.capacity else {
            return .discarded(
                reason: "the saved tare \(format(saved.tare)) is outside 0 … \(format(configuration.capacity))")
        }
        let gross = load - saved.zeroOffset
        guard gross >= -configuration.zeroRange, gross <= configuration.overloadLimit else {
            return .discarded(reason: "the load at start, \(format(gross)) from the saved zero, is out of range")
        }
        if saved.tare > 0, gross - saved.tare < -configuration.zeroRange {
            return .zeroOnly(
                zeroOffset: saved.zeroOffset,
                reason:
                    "the pan holds \(format(gross)), less than the \(format(saved.tare)) tare: the container is gone")
        }
        return .restored(zeroOffset: saved.zeroOffset, tare: saved.tare)
    }
}

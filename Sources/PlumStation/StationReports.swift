package import PlumCore
package import PlumProtocol

/// The reports a reading becomes: the `WEIGHT` every watcher receives and the binary frame.
extension Station {
    /// A `WEIGHT` report for `reading`, as every watcher receives it (also used by the
    /// per-sample benchmark).
    package static func weightReport(_ reading: Reading, sensor: String, time: Double, heaviest: Bool) -> WeightReport {
        let hue = ForceHue(fraction: reading.fractionOfCapacity ?? 0)
        return WeightReport(
            sensor: sensor, time: time, grams: reading.net.finite, display: reading.text(in: .gram), unit: "g",
            percent: reading.percentOfCapacity.finite, stable: reading.isStable, overload: reading.isOverload,
            underload: reading.isUnderload, zero: reading.isCentreOfZero, tare: reading.tare, heaviest: heaviest,
            hue: hue.degrees, rgb: hue.hex, calibrated: reading.isCalibrated, reason: reading.uncalibratedReason,
            signal: reading.signal.isFinite ? reading.signal : nil, division: reading.division.grams,
            flow: reading.flow.finite, divisions: reading.displayedDivisions)
    }

    static func frame(_ reading: Reading, index: Int, heaviest: Bool) -> BinaryFrame {
        var flags: BinaryFrame.Flags = []
        if reading.isStable { flags.insert(.stable) }
        if reading.isOverload { flags.insert(.overload) }
        if reading.isUnderload { flags.insert(.underload) }
        if reading.isCentreOfZero { flags.insert(.zeroCentre) }
        if reading.tare != 0 { flags.insert(.tared) }
        if heaviest { flags.insert(.heaviest) }
        if reading.isCalibrated { flags.insert(.calibrated) }
        if reading.cues.contains(.maxForce) { flags.insert(.cue) }
        return BinaryFrame(
            sensorIndex: UInt8(truncatingIfNeeded: index), flags: flags, grams: Float(reading.net ?? .nan),
            raw: Int32(clamping: Int64(reading.signal.isFinite ? reading.signal.rounded() : 0)))
    }
}

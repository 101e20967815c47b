import PlumCore
import PlumProtocol

/// One sensor of `plumscale status` in words.
package enum DeviceText {
    /// A few indented lines about one sensor.
    package static func describe(_ device: DevicesReport.Device) -> String {
        var lines = ["", "\(device.sensor) (\(device.kind)): \(device.state)\(device.reason.map { ": \($0)" } ?? "")"]
        if !device.wiring.isEmpty { lines.append("  wiring       \(device.wiring)") }
        if let profile = device.profile { lines.append("  profile      \(profile)") }
        let nominal = device.nominalRate > 0 ? " of \(FixedPoint.text(device.nominalRate, decimals: 1))" : ""
        lines.append(
            "  rate         \(FixedPoint.text(device.rate, decimals: 1))\(nominal) samples/s, \(device.published) "
                + "published"
        )
        let discarded = device.discarded.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        lines.append(
            "  discarded    "
                + (discarded.isEmpty
                    ? "none" : discarded.map { "\($0.value) \($0.key.replacingUnderscores)" }.joined(separator: ", ")))
        if device.notReady > 0 || device.faults > 0 {
            lines.append("  not ready    \(device.notReady) times, \(device.faults) faults")
        }
        if let fault = device.lastFault {
            lines.append("  last fault   \(fault)\(device.lastFaultTime.map { ", at \($0)" } ?? "")")
        }
        if device.calibrated {
            lines.append("  calibrated   \(device.calibrationDate ?? "?"), \(device.calibrationQuality ?? "")")
        } else {
            lines.append("  calibration  none: \(device.calibrationReason ?? "not calibrated")")
        }
        if let restore = device.restore {
            lines.append("  zero, tare   \(restore)\(device.restoreReason.map { ": \($0)" } ?? "")")
        }
        for notice in device.notices { lines.append("  note         \(notice)") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `not_ready` as "not ready", for counts named by a wire key.
    package var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}

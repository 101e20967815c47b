import PlumHistory
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The words `plumscale status` uses for the daemon's own health and the history's size.
package enum StatusText {
    /// "3 d 4 h", "2 h 5 min", "4 min 12 s", "12 s": the two largest units are enough to read.
    package static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        let (days, hours, minutes, rest) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(rest) s" }
        return "\(rest) s"
    }

    /// Decimal units, as `df -H` and card makers count: "812 kB", "1.2 GB".
    package static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(max(0, count))
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let text = value < 10 ? String(Double(Int((value * 10).rounded())) / 10) : String(Int(value.rounded()))
        return "\(text) \(units[unit])"
    }

    /// Seconds since the epoch as ISO 8601 UTC, as the daemon writes its times.
    package static func utc(_ epochSeconds: Double) -> String {
        var seconds = time_t(epochSeconds.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The daemon's lines: uptime, restarts, the state directory's space; nil fields are left
    /// out (an older daemon sends none of them).
    package static func daemon(_ status: DaemonStatus?, uptime: Double?) -> [String] {
        var lines: [String] = []
        if let uptime {
            lines.append("  up           \(duration(uptime))\(status?.started.map { ", since \($0)" } ?? "")")
        }
        guard let status else { return lines }
        if let restarts = status.restarts {
            var text = "  restarts     \(restarts)"
            if let unclean = status.uncleanStops, unclean > 0 { text += ", \(unclean) not clean" }
            if let last = status.lastStop {
                text +=
                    last == "clean"
                    ? "; the last stop was clean" : "; the last stop was not clean (killed, crashed or power lost)"
            }
            lines.append(text)
        }
        let directory = status.stateDirectory ?? "state directory"
        if let free = status.stateFreeBytes, let total = status.stateTotalBytes {
            lines.append("  state        \(directory): \(bytes(free)) free of \(bytes(total))\(percent(free, total))")
        } else if let error = status.stateError {
            lines.append("  state        free space unknown: \(error)")
        }
        return lines
    }

    /// The warning line for a state directory low on space, or nil.
    package static func spaceWarning(_ status: DaemonStatus?) -> String? {
        guard let status, status.isStateSpaceLow, let free = status.stateFreeBytes,
            let total = status.stateTotalBytes
        else { return nil }
        return "warning: \(status.stateDirectory ?? "the state directory") has only \(bytes(free)) free"
            + "\(percent(free, total)), below 50 MB or 5 %: zero, tare, calibrations and the history "
            + "cannot be saved once it is full; free some space or move the history ([web] history)"
    }

    /// The warning line while the daemon's saves fail (a full disk), or nil: unlike low space,
    /// nothing changed now would survive a restart.
    package static func saveWarning(_ status: DaemonStatus?) -> String? {
        status?.stateSaveError.map { "warning: the daemon cannot save its state: \($0)" }
    }

    /// The history's line: its file, size, rows and oldest row.
    package static func history(path: String, _ summary: HistorySummary) -> String {
        let oldest = summary.oldest.map { "oldest row \(utc($0))" } ?? "no rows yet"
        return "  history      \(path): \(bytes(summary.bytes)), \(summary.stableRows) stable readings, "
            + "\(summary.minuteRows) minutes, \(oldest)"
    }

    private static func percent(_ free: Int64, _ total: Int64) -> String {
        total > 0 ? " (\(Int((Double(free) / Double(total) * 100).rounded())) %)" : ""
    }
}

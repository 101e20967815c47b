import FoundationEssentials

/// The time range a history query covers: `since` inclusive, `until` exclusive, both in
/// seconds since the Unix epoch.
package struct HistoryWindow: Hashable, Sendable {
    package var since: Double
    package var until: Double

    package init(since: Double, until: Double) {
        self.since = since
        self.until = until
    }

    /// Whether `time` is in the window: from `since`, up to but not including `until`, as the
    /// history's reads select.
    package func contains(_ time: Double) -> Bool { time >= since && time < until }

    /// Parses the text of `--since`/`--until` or `?since=`/`?until=`.
    ///
    /// Each may be a span back from `now` (`90s`, `30m`, `12h`, `7d`), seconds since the epoch
    /// (`1795388111`), or an ISO 8601 UTC time (`2026-11-23`, `2026-11-23T16:00:00Z`).
    /// `since` defaults to one day before `now`, `until` to a moment after `now`.
    /// - Throws: ``HistoryError`` saying which value was wrong and the forms allowed.
    package static func parse(since: String?, until: String?, now: Double) throws(HistoryError) -> HistoryWindow {
        let start = try since.map { text throws(HistoryError) in try time(text, now: now, name: "since") }
        let end = try until.map { text throws(HistoryError) in try time(text, now: now, name: "until") }
        let window = HistoryWindow(since: start ?? now - 86_400, until: end ?? now + 1)
        guard window.since < window.until else {
            throw HistoryError("since (\(since ?? "1d")) is not before until (\(until ?? "now")); swap them")
        }
        return window
    }

    static func time(_ text: String, now: Double, name: String) throws(HistoryError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let unit = trimmed.last, let scale = ["s": 1.0, "m": 60, "h": 3600, "d": 86_400, "w": 604_800][unit],
            let count = Double(trimmed.dropLast()), count >= 0, count.isFinite
        {
            return now - count * scale
        }
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 { return seconds }
        let iso = trimmed.count == 10 ? trimmed + "T00:00:00Z" : trimmed
        if let date = try? Date(iso, strategy: Date.ISO8601FormatStyle()) { return date.timeIntervalSince1970 }
        throw HistoryError(
            "\(name) = \"\(text)\" is not a time; use a span back from now (30m, 12h, 7d), "
                + "seconds since the epoch, or an ISO 8601 UTC time (2026-11-23 or 2026-11-23T16:00:00Z)")
    }

    /// `seconds` since the epoch as ISO 8601 UTC with whole seconds, such as `2026-11-23T16:00:00Z`.
    package static func isoText(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(Date.ISO8601FormatStyle())
    }
}

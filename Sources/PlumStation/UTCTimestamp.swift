#if canImport(Glibc)
    internal import Glibc
#endif

/// The wall-clock time as ISO 8601 UTC ("2026-11-22T06:30:00Z"), for calibration dates.
package enum UTCTimestamp {
    package static func now() -> String { string(epochSeconds: Double(time(nil))) }

    /// `seconds` since the Unix epoch as ISO 8601 UTC, to the second below.
    package static func string(epochSeconds seconds: Double) -> String {
        var whole = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&whole, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Seconds since the Unix epoch with microseconds, for report times.
    static func epochSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec / 1000) / 1e6
    }
}

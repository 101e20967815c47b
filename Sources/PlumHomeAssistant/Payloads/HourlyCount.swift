/// How many times something happened in the last hour, from a counter the daemon keeps since it
/// started (a sensor's discarded samples in `?DEVICES`), read now and then.
///
/// The daemon gives totals, not rates: "3 late read-outs an hour" is the total now less the
/// total an hour ago. The bridge keeps the totals it read with their times and subtracts the
/// newest one at least an hour old. Until it has watched for an hour, the count is of what
/// happened since it began (fewer than an hour's worth, never extrapolated). A counter that
/// goes back (the daemon restarted, counting from 0 again) adds what the new daemon counted,
/// so a restart loses nothing counted before it.
///
/// Pure: the caller gives the times, in seconds on one monotonic clock.
struct HourlyCount: Sendable {
    /// The window, in seconds.
    static let hour = 3600.0

    /// The running total of events the bridge has seen, at each reading kept, oldest first.
    private var totals: [(time: Double, total: Int)] = []
    private var lastCounter: Int?
    private var total = 0

    /// Takes the daemon's counter as read at `time`.
    mutating func record(_ counter: Int, at time: Double) {
        if let lastCounter {
            total += counter >= lastCounter ? counter - lastCounter : counter
        }
        lastCounter = counter
        totals.append((time, total))
        // Keep the newest reading at least an hour old, as the baseline, and what follows it.
        if let baseline = totals.lastIndex(where: { $0.time <= time - Self.hour }), baseline > 0 {
            totals.removeFirst(baseline)
        }
    }

    /// The events in the hour up to `time` (since the first reading, when that is younger).
    func perHour(at time: Double) -> Int {
        guard let latest = totals.last else { return 0 }
        let baseline = totals.last { $0.time <= time - Self.hour } ?? totals[0]
        return latest.total - baseline.total
    }
}

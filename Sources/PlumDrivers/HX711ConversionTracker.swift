public import PlumHardware

/// Counts the conversions an HX711 completed that the driver never read: the chip overwrote
/// them with the next while the sampler was away (descheduled, or stalled in a late read-out).
///
/// The chip signals a conversion only by pulling DOUT low. One that completes while DOUT is
/// already low (the previous word is still waiting) makes no edge at all, so the spacing of the
/// ready edges the driver sees cannot count them. Time can: conversions come one period apart,
/// so the tracker keeps the instant of the last conversion it accounted for (its ready edge's
/// kernel timestamp) and how many it has accounted for since, and at each read works out how
/// many completed in between:
///
/// - with a fresh ready edge (stamped less than a period before DOUT was seen low), the edges
///   are both conversion instants: `round(gap / period)` conversions, the last of them read now;
/// - with a stale edge (a later conversion may have replaced the one it announced), or none,
///   the conversion read is the latest one: `floor(gap / slow period)` completed by the time the
///   read started. Counting with a period a little longer than measured keeps an oscillator at
///   the slow end of its tolerance from being counted a conversion it has not made yet; what
///   is undercounted here is made up at the next fresh edge, which recounts from its timestamp.
///
/// The period is measured from consecutive fresh edges one period apart (the internal
/// oscillator's rate is only "typical" in the datasheet), starting from the RATE pin's nominal
/// 100 ms or 12.5 ms. After a reset the chip's first conversion starts the count again.
@usableFromInline
struct HX711ConversionTracker {
    /// The ready edge of the last conversion accounted for; `nil` after a reset, until an edge.
    @usableFromInline var anchor: MonotonicInstant?
    /// Conversions after ``anchor`` already accounted for (read, or counted as missed).
    @usableFromInline var accounted: UInt64 = 0
    /// The measured conversion period, in nanoseconds.
    @usableFromInline var period: UInt64
    /// The RATE pin's period, which the measurement may not stray from by more than a quarter.
    @usableFromInline let nominal: UInt64

    @inlinable
    init(nominalPeriod: UInt64) {
        period = nominalPeriod
        nominal = nominalPeriod
    }

    /// Starts again after a reset: the conversions before it are of no concern.
    @inlinable
    mutating func forget() {
        anchor = nil
        accounted = 0
    }

    /// Accounts for the conversion about to be read.
    /// - Parameters:
    ///   - edge: the latest ready edge seen since the previous read-out, fresh or stale.
    ///   - fresh: whether `edge` announced the conversion about to be read.
    ///   - readyAt: when DOUT was seen low, so the read-out begins.
    /// - Returns: the conversions completed since the previous one accounted for that nobody read.
    @inlinable
    mutating func account(edge: MonotonicInstant?, fresh: Bool, readyAt: MonotonicInstant) -> UInt32 {
        // Conversions after the anchor up to the edge (the edge's own included), then after the
        // edge up to now.
        var upToEdge: UInt64 = 0
        var base = anchor
        if let edge {
            if let anchor {
                let gap = edge.nanoseconds(since: anchor)
                upToEdge = (gap + period / 2) / period
                if fresh, upToEdge == 1 { measure(gap) }
            } else {
                upToEdge = 1
            }
            base = edge
        }
        guard let base else { return 0 }
        let afterEdge = fresh ? 0 : surelyCompleted(from: base, to: readyAt)
        let completed = upToEdge + afterEdge
        let missed = completed > accounted + 1 ? completed - accounted - 1 : 0
        let accountedNow = max(accounted + 1, completed)
        if edge != nil {
            anchor = base
            accounted = accountedNow > upToEdge ? accountedNow - upToEdge : 0
        } else {
            accounted = accountedNow
        }
        return UInt32(clamping: missed)
    }

    /// Counts as missed the conversions completed after the last one accounted for, by
    /// `instant`, when no read will account for them: the driver is about to reset the chip
    /// after a failed read-out (one that completed under the clock and replaced the word, say).
    @inlinable
    mutating func unread(before instant: MonotonicInstant) -> UInt32 {
        guard let anchor else { return 0 }
        let completed = surelyCompleted(from: anchor, to: instant)
        let unread = completed > accounted ? completed - accounted : 0
        accounted += unread
        return UInt32(clamping: unread)
    }

    /// Conversions completed in `(start, end]` with a conversion at `start`, counted with a
    /// period 5 % longer than measured, so that one just due is not counted before it is made.
    @inlinable
    func surelyCompleted(from start: MonotonicInstant, to end: MonotonicInstant) -> UInt64 {
        end.nanoseconds(since: start) / (period + period / 20)
    }

    /// Moves the period estimate a sixteenth of the way towards one measured gap, when the gap
    /// is within a quarter of the nominal period (a late interrupt can stamp an edge late).
    @inlinable
    mutating func measure(_ gap: UInt64) {
        guard gap > nominal - nominal / 4, gap < nominal + nominal / 4 else { return }
        let difference = (Int64(clamping: gap) - Int64(clamping: period)) / 16
        period = UInt64(clamping: Int64(clamping: period) + difference)
    }
}

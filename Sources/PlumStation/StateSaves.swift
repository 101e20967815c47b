internal import PlumCore
internal import PlumStore

/// Whether the daemon's saves to its state directory work now, so that a full disk is logged
/// once when saves begin to fail and once when they work again, and `?DEVICES` says so
/// meanwhile (``DaemonStatus/stateSaveError``).
///
/// On a full card zero tracking asks to save every other second, and every tare, count and
/// setting asks again: one error line each would bury the log (and fill a journal on the same
/// card). Each failed request is still answered with its error; only the log is kept to the
/// changes of state.
struct StateSaves {
    /// The first failure of the failures since the last save that worked.
    struct Failure {
        /// What could not be saved first: "pan: zero and tare".
        var what: String
        var error: CalibrationStoreError
        /// Wall-clock, for people (``UTCTimestamp/now()``).
        var since: String
        /// Saves that failed since, this one included.
        var count: Int
    }

    private(set) var failure: Failure?

    /// A save of `what` failed: the line to log, or nil when a failure of the same kind is
    /// already logged and not yet over.
    mutating func failed(_ what: String, _ error: CalibrationStoreError, at now: String = UTCTimestamp.now())
        -> String?
    {
        if var failure, failure.error.errno == error.errno, failure.error.code == error.code {
            failure.count += 1
            self.failure = failure
            return nil
        }
        failure = Failure(what: what, error: error, since: now, count: 1)
        let meanwhile =
            error.isNoSpace
            ? "; until space is freed, zero, tare and settings hold in memory only and a restart loses them"
                + " (logged once; the next save that works is logged too)"
            : ""
        return "\(what) not saved: \(error)\(meanwhile)"
    }

    /// A save of `what` worked: the line to log when saves had been failing, else nil.
    mutating func succeeded(_ what: String) -> String? {
        guard let failure else { return nil }
        self.failure = nil
        let saves = failure.count == 1 ? "1 save" : "\(failure.count) saves"
        return "\(what) saved: the state directory takes saves again (\(saves) failed since \(failure.since))"
    }

    /// The failure for `?DEVICES`: what, since when, why and what to do; nil while saves work.
    var problem: String? {
        failure.map {
            "\($0.what) not saved since \($0.since) (\($0.count) failed): \($0.error.message); \($0.error.hint)"
        }
    }
}

/// The release string and protocol version the daemon reports in its `VERSION` line.
public enum DaemonVersion {
    /// The PlumScale release; the composer may report its own build instead.
    public static let release = "0.1.0"
    /// Changes only when a change would break existing clients.
    public static let protocolMajor = 1
    /// Grows with each additive change: 1 added the `ALERT` report class, 2 the `flow` of `WEIGHT`
    /// and `removed` of `ALERT`, 3 the `divisions` of a `WEIGHT`, and the `state`, `stale`
    /// and `age` of one from a sensor that delivers no samples, the `restore` and
    /// `restore_reason` of `DEVICES` and its state `warming-up`, 4 the `BUTTON` report class,
    /// `uptime` of `DEVICES` and `calibration_grade` and `last_fault` of its devices, 5 the
    /// settings requests (`?TARE` with `grams` or `name`, `?TARES` and its `TARES` report, `?ALERT`),
    /// the `ITEM` and `SESSION` report classes with `?SESSION`, and `?COUNT` and `?CHECK` with the
    /// `count`, `count_ratio` and `check` of `WEIGHT`, 6 the `daemon` object of `DEVICES` (start,
    /// restarts, state directory's free space) and `last_fault_time` of its devices, 7 `?CLIENT`,
    /// its `CLIENT` answer and the `clients` of `DEVICES` (the services connected to the daemon),
    /// 8 the `borderline` and `withheld` of `WEIGHT` (check-weighing and counting by the rules of
    /// the minimum weight).
    public static let protocolMinor = 9
}

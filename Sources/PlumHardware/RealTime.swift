#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Real-time helpers for a sampler thread: `SCHED_FIFO`, timer slack and locked memory.
///
/// Bit-banging the HX711 keeps each PD_SCK pulse under 50 µs (HX711 datasheet, "Serial
/// Interface", T3; high for over 60 µs powers the chip down), so the sampler thread must not be
/// preempted by ordinary work or stall on a page fault. Mirrors `pthread_setschedparam(3)`
/// and `mlockall(2)`; both need privileges, and the errors say how to grant them.
public enum RealTime {
    /// How the calling thread is scheduled.
    public enum Policy: Hashable, Sendable, CustomStringConvertible {
        /// `SCHED_OTHER`, the default time-sharing policy.
        case normal
        /// `SCHED_FIFO` at a priority from 1 (lowest) to 99.
        case fifo(priority: Int32)
        /// Any other policy (`SCHED_RR`, `SCHED_BATCH`, …), by its number.
        case other(policy: Int32, priority: Int32)

        public var description: String {
            switch self {
            case .normal: "SCHED_OTHER"
            case .fifo(let priority): "SCHED_FIFO priority \(priority)"
            case .other(let policy, let priority): "policy \(policy) priority \(priority)"
            }
        }
    }

    private static let privilegeHint =
        "needs CAP_SYS_NICE / CAP_IPC_LOCK; run under systemd with LimitRTPRIO= and "
        + "LimitMEMLOCK= (or AmbientCapabilities=), or as root"

    /// Runs the calling thread under `SCHED_FIFO` at `priority`.
    /// - Throws: ``HardwareError/Code/invalidRequest`` for a priority outside 1…99;
    ///   ``HardwareError/Code/systemCall`` with EPERM when not permitted, saying how to permit it.
    public static func setFIFOPriority(_ priority: Int32) throws(HardwareError) {
        let range = Syscalls.priorityRange(policy: SCHED_FIFO)
        guard range.contains(priority) else {
            throw HardwareError(
                .invalidRequest, operation: "setting SCHED_FIFO priority", subject: String(priority),
                detail: "outside \(range.lowerBound)…\(range.upperBound)",
                hint: "a sampler needs little: 10 to 50 leaves room for the kernel's own threads")
        }
        if case .failure(let errno) = Syscalls.setSchedulingPolicy(SCHED_FIFO, priority: priority) {
            throw HardwareError(
                .systemCall, operation: "setting SCHED_FIFO priority \(priority) for", subject: "the sampler thread",
                errno: errno, hint: errno == .operationNotPermitted ? privilegeHint : nil)
        }
    }

    /// Returns the calling thread to `SCHED_OTHER`. Dropping real-time priority is always
    /// permitted.
    public static func setNormalPriority() throws(HardwareError) {
        if case .failure(let errno) = Syscalls.setSchedulingPolicy(SCHED_OTHER, priority: 0) {
            throw HardwareError(
                .systemCall, operation: "setting SCHED_OTHER for", subject: "the calling thread", errno: errno)
        }
    }

    /// The calling thread's scheduling policy.
    public static func currentPolicy() throws(HardwareError) -> Policy {
        switch Syscalls.schedulingPolicy() {
        case .success(let (policy, priority)):
            if policy == SCHED_OTHER { return .normal }
            if policy == SCHED_FIFO { return .fifo(priority: priority) }
            return .other(policy: policy, priority: priority)
        case .failure(let errno):
            throw HardwareError(
                .systemCall, operation: "reading scheduling policy of", subject: "the calling thread", errno: errno)
        }
    }

    /// Sets the calling thread's timer slack (`prctl(PR_SET_TIMERSLACK)`): how much later than
    /// asked the kernel may end its timed waits, to wake it together with other timers. An
    /// ordinary thread has 50 µs; a `SCHED_FIFO` thread none. A sampler's timed waits are the
    /// hardware's deadlines (an ADS1115 conversion polled without an ALERT line, a simulated
    /// chip's next edge), so it asks for little. Nanoseconds of 0 restore the thread's default.
    public static func setTimerSlack(nanoseconds: UInt) throws(HardwareError) {
        if case .failure(let errno) = Syscalls.setTimerSlack(nanoseconds: nanoseconds) {
            throw HardwareError(
                .systemCall, operation: "setting timer slack \(nanoseconds) ns for", subject: "the calling thread",
                errno: errno)
        }
    }

    /// The calling thread's timer slack in nanoseconds (`prctl(PR_GET_TIMERSLACK)`).
    public static func timerSlack() throws(HardwareError) -> UInt {
        switch Syscalls.timerSlack() {
        case .success(let nanoseconds): return UInt(nanoseconds)
        case .failure(let errno):
            throw HardwareError(
                .systemCall, operation: "reading timer slack of", subject: "the calling thread", errno: errno)
        }
    }

    /// Locks the process's current and future pages in RAM (`mlockall(MCL_CURRENT|MCL_FUTURE)`),
    /// so the sampler never waits on a page fault.
    /// - Throws: ``HardwareError/Code/systemCall``: EPERM without CAP_IPC_LOCK, ENOMEM when
    ///   RLIMIT_MEMLOCK is too small; both say how to fix it.
    public static func lockMemory() throws(HardwareError) {
        if case .failure(let errno) = Syscalls.lockAllMemory() {
            let hint: String? =
                switch errno {
                case .operationNotPermitted: privilegeHint
                case Errno(rawValue: ENOMEM):
                    "RLIMIT_MEMLOCK is smaller than the process; raise it (LimitMEMLOCK=infinity "
                        + "under systemd, ulimit -l unlimited in a shell)"
                default: nil
                }
            throw HardwareError(
                .systemCall, operation: "locking memory of", subject: "this process", errno: errno, hint: hint)
        }
    }

    /// Undoes ``lockMemory()`` (`munlockall`).
    public static func unlockMemory() throws(HardwareError) {
        if case .failure(let errno) = Syscalls.unlockAllMemory() {
            throw HardwareError(.systemCall, operation: "unlocking memory of", subject: "this process", errno: errno)
        }
    }
}

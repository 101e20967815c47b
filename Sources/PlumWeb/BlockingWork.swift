import NIOPosix

/// Threads of plumscale-web's own for work that blocks: bcrypt and SQLite.
///
/// Swift's cooperative pool has one thread per core, two on a Pi Zero 2's sibling boards that
/// share the load with the daemon; a bcrypt check at cost 12 holds its thread for about a
/// second, so four guesses at once would freeze the page, `/ws` and the history writes. Work
/// that blocks goes to these threads instead, and the async caller only waits.
enum BlockingWork {
    /// One thread: password checks run one at a time, whatever arrives at once. The queue in
    /// front of it is bounded by ``LoginThrottle``, which admits no more than its limit.
    static let password: NIOThreadPool = started(threads: 1)
    /// History exports: two threads, so one long export does not hold back the next page.
    static let history: NIOThreadPool = started(threads: 2)
    /// The setup socket: one thread, since one person sets the scale up, and an apply waits
    /// for plumscaled's restart for up to half a minute.
    static let setup: NIOThreadPool = started(threads: 1)

    private static func started(threads: Int) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }
}

import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One thread of a client's own that runs its blocking calls one after another, made once and
/// ended when the client goes.
///
/// A Dispatch queue did this before, and on Linux Dispatch starts a worker for the work and
/// ends it once idle: plumscale-web polls the daemon's devices every 5 s, so it made and ended
/// a thread every 5 s for its whole life (docs/RELIABILITY.md, finding 7).
final class ClientThread: Sendable {
    private final class Shared: Sendable {
        let jobs = Mutex<[@Sendable () -> Void]>([])
        /// One signal per job, and one more when the owner goes.
        let ready = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()

    init() {
        let shared = self.shared
        ReaderThread.start {
            while true {
                shared.ready.wait()
                let next = shared.jobs.withLock { jobs in jobs.isEmpty ? nil : jobs.removeFirst() }
                // A signal with no job is the owner's deinit: every job before it has run.
                guard let next else { return }
                next()
            }
        }
    }

    deinit {
        shared.ready.signal()
    }

    /// Runs `job` on the thread, after the jobs given before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        shared.jobs.withLock { $0.append(job) }
        shared.ready.signal()
    }
}

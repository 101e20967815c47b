import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A detached POSIX thread for a blocking reader, so a socket read never holds one of the few
/// threads of Swift's concurrency pool.
enum ReaderThread {
    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                work.body()
                return nil
            }, work)
        guard result == 0 else {
            // No thread to be had: a Dispatch thread does the work rather than lose it.
            let work = Unmanaged<Work>.fromOpaque(work).takeRetainedValue()
            DispatchQueue.global().async { work.body() }
            return
        }
        pthread_detach(thread)
    }
}

import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` on a new thread and returns what it returned or throws what it threw, once the
/// thread has ended. For what a test sets on its thread (scheduling, timer slack), which would
/// otherwise stay on a thread the test runner reuses.
package func onThreadOfItsOwn<T>(_ body: @escaping () throws -> T) throws -> T {
    var result: Result<T, any Error>?
    let task = ThreadTask { result = Result { try body() } }
    var thread = pthread_t()
    let created = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<ThreadTask>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(task).toOpaque())
    guard created == 0 else { throw FixtureError("pthread_create: \(Errno(rawValue: created))") }
    pthread_join(thread, nil)
    return try result!.get()
}

/// What a thread started by `onThreadOfItsOwn` runs; the caller waits for it with `pthread_join`
/// before it reads what the thread wrote.
private final class ThreadTask: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

package import NIOCore

/// Runs a task's jobs on one of the transport's event loops.
///
/// A task that prefers this executor (`addTask(executorPreference:)`) runs its nonisolated
/// code, and the code of any default actor it calls, on that loop's thread. The daemon feeds
/// the station this way: a sample wakes one thread, the loop, which weighs it and then writes
/// the report to its own clients without waking another thread (section 3 of PERFORMANCE.md).
package final class EventLoopTaskExecutor: TaskExecutor {
    package let eventLoop: any EventLoop

    package init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

import Foundation
import PlumSystem

/// A task executor with threads of its own, that grows a thread whenever every one it has is
/// busy: for tests that block (a child process awaited with `waitpid`, a `read` on a socket, a
/// sleep) or compute for seconds (a property check over thousands of engine samples).
///
/// Swift concurrency's pool has as many threads as cores, two on a small CI machine, and every
/// test runs on it. One test blocking a thread, or two computing for 30 s, leaves nothing for
/// the others: a daemon's watchdog ping, an idle timer or a reply goes unread for tens of
/// seconds and a test of something else fails. Jobs of a test under ``ownThreads`` run here
/// instead, so the pool stays free and the kernel shares the cores fairly among all of them.
package final class TestThreadsExecutor: TaskExecutor, @unchecked Sendable {
    package static let shared = TestThreadsExecutor()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var threads = 0
    private var idle = 0

    private init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // Each idle thread takes one job; more jobs than that, and one may be waiting for a
        // job behind it, so a thread is added rather than let it wait.
        if jobs.count > idle {
            threads += 1
            let name = "plum-test-\(threads)"
            // Named from inside: on Linux a thread starts with its creator's name. The kernel's
            // name is set directly: Foundation's setter once left a thread with its creator's
            // ("root.default-qos"), and a test of where bodies run failed on it.
            Thread {
                Syscalls.setThreadName(name)
                Thread.current.name = name
                self.work()
            }.start()
        } else {
            condition.signal()
        }
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            idle += 1
            while jobs.isEmpty { condition.wait() }
            idle -= 1
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

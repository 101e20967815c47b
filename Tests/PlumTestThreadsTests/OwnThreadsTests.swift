import Foundation
import PlumSystem
import PlumTestSupport
import PlumTestThreads
import Testing

/// The kernel's name of the thread running the caller (a synchronous function, so it may ask).
private func threadName() -> String { Syscalls.threadName() }

@Suite("Tests under .ownThreads run on threads of their own, off the concurrency pool", .ownThreads)
struct OwnThreadsTests {
    @Test("the test body and its child tasks run on the executor's threads")
    func bodyRunsOnOwnThreads() async {
        #expect(threadName().hasPrefix("plum-test-"), "ran on \(threadName())")
        async let child = threadName()
        let name = await child
        #expect(name.hasPrefix("plum-test-"), "a child task ran on \(name)")
    }

    /// Four tasks that each block until all four have started: on a pool with a thread per
    /// core (two here) they would wait for each other for ever; the executor grows instead.
    @Test("tasks that block do not hold up the others: four blocked at once all get a thread")
    func blockedTasksGetThreads() async {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let count = 4
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    started.signal()
                    let own = threadName().hasPrefix("plum-test-")
                    return release.wait(timeout: .now() + 20) == .success && own
                }
            }
            var all = true
            for _ in 0..<count where started.wait(timeout: .now() + 20) != .success { all = false }
            #expect(all, "not every blocked task was given a thread within 20 s")
            for _ in 0..<count { release.signal() }
            for await released in group {
                #expect(released, "a blocked task ran off the executor or was never released")
            }
        }
    }
}

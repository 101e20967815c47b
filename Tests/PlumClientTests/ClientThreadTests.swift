import Foundation
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumClient

/// A client's blocking calls run on one thread of its own, made once: plumscale-web's poll every
/// 5 s made and ended a Dispatch worker each time (docs/RELIABILITY.md, finding 7).
@Suite("A client's own thread")
struct ClientThreadTests {
    @Test(
        "jobs given apart, with pauses longer than Dispatch keeps an idle worker, run in order on one thread, which ends with its owner"
    )
    func oneThreadInOrderEndingWithItsOwner() async throws {
        let ran = Mutex<[(job: Int, thread: String)]>([])
        var owner: ClientThread? = ClientThread()
        for job in 0..<6 {
            owner?.async {
                // "PID/task/TID": the kernel's name for the thread that runs the job.
                let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "?"
                ran.withLock { $0.append((job, thread)) }
            }
            if job == 2 {
                // Longer than libdispatch's idle worker lives, so a queue would have made a new one.
                try await Task.sleep(for: .seconds(6))
            }
        }
        try await waitFor("six jobs to run", describe: { "\(ran.withLock { $0.count }) ran" }) {
            ran.withLock { $0.count } == 6
        }
        let seen = ran.withLock { $0 }
        #expect(seen.map(\.job) == Array(0..<6), "in the order given: \(seen.map(\.job))")
        let threads = Set(seen.map(\.thread))
        #expect(threads.count == 1, "one thread for all: \(threads)")
        let thread = try #require(threads.first)
        #expect(FileManager.default.fileExists(atPath: "/proc/\(thread)"), "alive while its owner is")
        owner = nil
        try await waitFor("the client's thread to end with its owner") {
            !FileManager.default.fileExists(atPath: "/proc/\(thread)")
        }
    }
}

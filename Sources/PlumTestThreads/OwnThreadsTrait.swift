internal import Foundation
internal import PlumTestSupport
package import Testing

/// Runs each test of a suite or test under it on ``TestThreadsExecutor``, a few at a time:
/// `@Suite(.ownThreads)`.
///
/// Off the pool, a test that blocks or computes no longer starves the others of threads; but
/// forty of them at once (a property check, a real daemon and its clients each) would starve
/// every test of CPU instead, and deadlines of a few seconds in all of them would pass on a
/// two-core machine. So at most ``concurrentTests`` of them run at a time; a test waits for its
/// turn before its body, and so before any deadline of its own starts. A `.timeLimit` does
/// count that wait, so a suite under this trait sets one of three minutes or more (the whole
/// suite took two beside two busy loops on two cores).
package struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    /// The cores plus one: one test may be waiting on a child process while the others compute.
    package static let concurrentTests = ProcessInfo.processInfo.activeProcessorCount + 1

    static let turns = Turns(Self.concurrentTests)

    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.turns.take()
        do {
            try await withTaskExecutorPreference(TestThreadsExecutor.shared) { try await function() }
        } catch {
            await Self.turns.give()
            throw error
        }
        await Self.turns.give()
    }
}

/// A counting semaphore for tasks: waiting suspends, it holds no thread.
actor Turns {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// The test blocks or computes for long: it runs on threads of its own, off the concurrency
    /// pool (``TestThreadsExecutor``), with few others like it at once.
    package static var ownThreads: Self { Self() }
}

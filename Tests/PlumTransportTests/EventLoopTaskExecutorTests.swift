import NIOCore
import NIOPosix
import PlumTransport
import Testing

@Suite("The publishing executor: a task and the default actors it calls run on one event loop")
struct EventLoopTaskExecutorTests {
    /// Stands in for the station: a default actor with no executor of its own.
    actor Counter {
        var count = 0
        func increment(expecting loop: any EventLoop) -> Bool {
            count += 1
            return loop.inEventLoop
        }
    }

    @Test("a task that prefers the executor runs its code, and a default actor's, on the executor's loop")
    func runsOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let executor = EventLoopTaskExecutor(group.next())
        let other = group.next()
        #expect(executor.eventLoop !== other)
        let counter = Counter()
        let (onLoop, actorOnLoop, otherLoop) = await Task(executorPreference: executor) {
            // Every suspension resumes on the preferred loop, the actor's code included.
            var actorOnLoop = true
            for _ in 0..<100 {
                actorOnLoop = await counter.increment(expecting: executor.eventLoop) && actorOnLoop
                await Task.yield()
            }
            return (executor.eventLoop.inEventLoop, actorOnLoop, other.inEventLoop)
        }.value
        #expect(onLoop, "the task's own code ran off the preferred loop")
        #expect(actorOnLoop, "the default actor's code ran off the preferred loop")
        #expect(!otherLoop)
        #expect(await counter.count == 100)
        try await group.shutdownGracefully()
    }

    @Test("a report published on the server's publishing executor runs on its loop and reaches a watching client")
    func publishFromTheLoop() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await client.send("?WATCH={\"enable\":true};\n")
            _ = try await client.readLines { $0.hasPrefix("{\"class\":\"WATCH\"") }
            let executor = server.server.publishingExecutor
            let publishedOnLoop = await Task(executorPreference: executor) {
                server.hub.publish(.weight(sensor: "left", line: #"{"class":"WEIGHT","sensor":"left"}"#))
                return executor.eventLoop.inEventLoop
            }.value
            #expect(publishedOnLoop, "the report was published off the server's publishing loop")
            let line = try await client.readLine()
            #expect(line == #"{"class":"WEIGHT","sensor":"left"}"#)
        }
    }
}

import Logging
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumWeb
import ServiceLifecycle
import Testing

/// The web service's link through the client library to a real `plumscaled --simulate`.
@Suite("Link to the real daemon", .timeLimit(.minutes(3)))
struct WebDaemonLinkTests {
    @Test("readings flow from plumscaled to the board, tare is carried out, and a restarted daemon is found again")
    func realDaemon() async throws {
        let first = try await offPool { try DaemonFixture() }
        let directory = first.directory
        let daemon = DaemonLink(socketPath: first.socketPath)
        let board = PanBoard()
        let feed = DaemonFeed(
            link: daemon, board: board, history: nil, logger: Logger(label: "test"),
            devicesInterval: .milliseconds(500))
        let (_, frames, _) = await board.subscribe()
        let group = ServiceGroup(services: [feed], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = frames.makeAsyncIterator()
            try await LiveFeedTests.next(&iterator, containing: #""connected":true"#)
            try await LiveFeedTests.next(&iterator, containing: #""sensor":"left""#)
            try await LiveFeedTests.next(&iterator, containing: #""sensor":"right""#)
            #expect(Set(await board.sensors) == ["left", "right"], "the simulated pans")

            let reply = try await daemon.tare(sensor: "left")
            #expect(reply.sensor == "left" && reply.command == "TARE", "the daemon answered the tare: \(reply)")
            let refusal = await #expect(throws: ClientError.self) { try await daemon.tare(sensor: "middle") }
            #expect(refusal?.code == .unknownSensor, "an unknown sensor is the daemon's refusal, not a lost link")

            // The daemon restarts on the same socket: the page is told, and the feed finds it again.
            _ = try await offPool { first.terminate() }
            try await LiveFeedTests.next(&iterator, containing: #""connected":false"#)
            let second = try await offPool { try DaemonFixture(directory: directory) }
            try await LiveFeedTests.next(&iterator, containing: #""connected":true"#)
            try await LiveFeedTests.next(&iterator, containing: #""sensor":"left""#)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            _ = try await offPool { second.terminate() }
        }
    }
}

import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import Logging
import PlumProtocol
import PlumWeb
import ServiceLifecycle
import Synchronization
import Testing

@Suite("Live feed: daemon to browser", .timeLimit(.minutes(2)))
struct LiveFeedTests {
    @Test("a browser's WebSocket gets the pans as they are, then every new reading and the max-force cue")
    func webSocketFrames() async throws {
        let fixture = try WebTestFixture()
        await fixture.board.linkChanged(connected: true, message: nil)
        await fixture.board.apply(try weight("left", grams: 10, heaviest: true))
        let frames = Mutex<[String]>([])
        try await fixture.application().test(.live) { client in
            _ = try await client.ws("/ws") { inbound, _, _ in
                var pushed = false
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    guard case .text(let text) = message else { continue }
                    let count = frames.withLock {
                        $0.append(text)
                        return $0.count
                    }
                    if count == 2 && !pushed {
                        // The snapshot (status, left) has arrived; now the daemon reports.
                        pushed = true
                        await fixture.board.apply(try weight("right", grams: 55, heaviest: true))
                        await fixture.board.apply(.cue(try Self.cue("right")))
                    }
                    if count == 4 { break }
                }
            }
        }
        let seen = frames.withLock { $0 }
        #expect(seen.count == 4, "status, left, right, cue: \(seen)")
        #expect(seen.first?.contains(#""type":"status","connected":true"#) == true, "the link state comes first")
        #expect(seen.dropFirst().first?.contains(#""sensor":"left""#) == true, "then the pan as it is")
        #expect(seen.dropFirst(2).first?.contains(#""sensor":"right","#) == true, "then the new reading")
        #expect(seen.last == #"{"type":"cue","sensor":"right","cue":"max-force","grams":null}"#)
        #expect(await fixture.board.watcherCount <= 1, "a closed WebSocket leaves the board")
    }

    @Test("when the daemon restarts the feed reconnects, and the page is told it was away")
    func reconnects() async throws {
        let daemon = ScriptedDaemon()
        let board = PanBoard()
        let feed = DaemonFeed(
            daemon: daemon, board: board, history: nil, logger: Logger(label: "test"),
            devicesInterval: .milliseconds(100))
        let (snapshot, frames, _) = await board.subscribe()
        #expect(snapshot.first?.contains(#""connected":false"#) == true, "before the first connection, not connected")
        let group = ServiceGroup(services: [feed], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = frames.makeAsyncIterator()
            try await Self.next(&iterator, containing: #""connected":true"#)
            daemon.push(try weight("left", grams: 3))
            try await Self.next(&iterator, containing: #""sensor":"left""#)
            daemon.dropConnection()
            try await Self.next(&iterator, containing: #""connected":false"#)
            try await Self.next(&iterator, containing: #""connected":true"#)
            #expect(daemon.connectionCount == 2, "one new connection after the restart")
            daemon.push(try weight("left", grams: 4))
            try await Self.next(&iterator, containing: #""grams":4"#)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(daemon.requests.contains(.devices), "the feed asks for the device list for the metrics")
    }

    /// The next frame containing `text`, skipping others; fails if the stream ends first.
    static func next(_ iterator: inout AsyncStream<String>.Iterator, containing text: String) async throws {
        while let frame = await iterator.next() {
            if frame.contains(text) { return }
        }
        Issue.record("the frames ended before one containing \(text)")
    }

    static func cue(_ sensor: String) throws -> CueReport {
        guard case .cue(let cue) = try Report.decode(#"{"class":"CUE","sensor":"\#(sensor)","cue":"max-force"}"#) else {
            throw ScriptedDaemon.ConnectionRefused()
        }
        return cue
    }
}

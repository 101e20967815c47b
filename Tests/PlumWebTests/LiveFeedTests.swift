import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import Logging
import PlumClient
import PlumProtocol
import PlumTestSupport
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
        let directory = try TemporaryDirectory(prefix: "plumweb")
        let daemon = try FakeDaemon(path: directory.file("plumscaled.sock"))
        defer { daemon.stop() }
        let board = PanBoard()
        let feed = DaemonFeed(
            link: DaemonLink(socketPath: daemon.path, backOff: BackOff(first: .milliseconds(20))), board: board,
            history: nil, logger: Logger(label: "test"), devicesInterval: .milliseconds(100))
        let (snapshot, frames, _) = await board.subscribe()
        #expect(snapshot.first?.contains(#""connected":false"#) == true, "before the first connection, not connected")
        let group = ServiceGroup(services: [feed], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = frames.makeAsyncIterator()
            try await Self.next(&iterator, containing: #""connected":true"#)
            try await waitFor("the feed to watch") { daemon.watches.count == 1 }
            daemon.push(weightLine("left", grams: 3))
            try await Self.next(&iterator, containing: #""sensor":"left""#)
            daemon.stop()
            try await Self.next(&iterator, containing: #""connected":false"#)
            try daemon.start()
            try await Self.next(&iterator, containing: #""connected":true"#)
            try await waitFor("the feed to watch again") { daemon.watches.count == 1 }
            let watches = daemon.requests.filter { if case .watch = $0 { true } else { false } }
            #expect(watches.count == 2, "one new subscription after the restart: \(watches)")
            daemon.push(weightLine("left", grams: 4))
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
            throw Reports.NotAReport()
        }
        return cue
    }
}

import PlumProtocol
import PlumTestSupport
import PlumTransport
import Testing

@Suite("JSON clients over a real Unix socket", .serialized)
struct ClientHubTests {
    @Test("a new client is greeted with the VERSION line before anything else")
    func greeting() async throws {
        try await ServerFixture.with(.init(release: "9.8.7")) { server in
            let client = try TestClient(path: server.path)
            let first = try await client.readLine()
            #expect(first == "{\"class\":\"VERSION\",\"release\":\"9.8.7\",\"proto_major\":1,\"proto_minor\":9}")
        }
    }

    @Test("requests are answered in the order they were sent, including pipelined ones")
    func repliesInOrder() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await client.send("?POLL;\n?DEVICES;\n?POLL;\n?TARE={\"sensor\":\"left\"};\n?VERSION;\n")
            let lines = try await client.readLines { $0.hasPrefix("{\"class\":\"VERSION\"") }
            #expect(
                lines == [
                    ScaleRequestHandler.line(ScaleRequestHandler.poll(1)),
                    ScaleRequestHandler.line(ScaleRequestHandler.devices),
                    ScaleRequestHandler.line(ScaleRequestHandler.poll(2)),
                    ScaleRequestHandler.line(ScaleRequestHandler.command("TARE", "left")),
                    server.hub.versionReport.dropLast().description
                ])
        }
    }

    struct FilterCase: Sendable, CustomTestStringConvertible {
        var watch: String
        var expected: [String]
        var testDescription: String { watch }
    }

    static let publications: [Publication] = [
        .weight(sensor: "left", line: "W-left\n"),
        .weight(sensor: "right", line: "W-right\n"),
        .raw(sensor: "left", line: "R-left\n"),
        .raw(sensor: "right", line: "R-right\n"),
        .event(sensor: "left", line: "E-left\n"),
        .event(sensor: "right", line: "E-right\n")
    ]

    @Test(
        "?WATCH decides which reports a client receives",
        arguments: [
            FilterCase(watch: "{\"enable\":true}", expected: ["W-left", "W-right", "E-left", "E-right"]),
            FilterCase(watch: "{\"sensors\":[\"left\"]}", expected: ["W-left", "E-left"]),
            FilterCase(watch: "{\"sensors\":[\"right\"],\"raw\":true}", expected: ["W-right", "R-right", "E-right"]),
            FilterCase(
                watch: "{\"raw\":true}", expected: ["W-left", "W-right", "R-left", "R-right", "E-left", "E-right"]),
            FilterCase(watch: "{\"enable\":false,\"raw\":true}", expected: [])
        ])
    func watchFilters(_ filter: FilterCase) async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await server.watch(client, filter.watch)
            for publication in Self.publications { server.hub.publish(publication) }
            // Reports and replies share one ordered queue, so everything published before the
            // request arrives ahead of its reply.
            try await client.send("?VERSION;\n")
            let lines = try await client.readLines { $0.hasPrefix("{\"class\":\"VERSION\"") }
            #expect(Array(lines.dropLast()) == filter.expected)
        }
    }

    @Test("a changes-only watcher gets a sensor's WEIGHT when what it shows changes; an all-readings one gets each")
    func changesOnly() async throws {
        try await ServerFixture.with { server in
            let shows = try await server.connect()
            try await server.watch(shows, "{\"changes\":true}")
            let every = try await server.connect()
            try await server.watch(every)
            let sequence: [(String, String, Int)] = [
                ("left", "L1", 1), ("left", "L2", 1), ("right", "R1", 1), ("left", "L3", 2), ("left", "L4", 2),
                ("right", "R2", 1), ("left", "L5", 1)
            ]
            for (sensor, line, shown) in sequence {
                server.hub.publish(.weight(sensor: sensor, line: line + "\n", shown: shown))
            }
            for client in [shows, every] { try await client.send("?VERSION;\n") }
            let seen = try await shows.readLines { $0.hasPrefix("{\"class\":\"VERSION\"") }.dropLast()
            #expect(Array(seen) == ["L1", "R1", "L3", "L5"], "each sensor's first, then only its changes")
            let all = try await every.readLines { $0.hasPrefix("{\"class\":\"VERSION\"") }.dropLast()
            #expect(all.count == sequence.count, "the other watcher is not thinned")
        }
    }

    @Test("a changes-only watcher of a still pan gets a report again after the heartbeat, not every reading")
    func changesHeartbeat() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await server.watch(client, "{\"changes\":true}")
            // A pan at rest: the same picture at 50 readings a second until a second report
            // arrives, with a deadline.
            let publisher = Task {
                var published = 0
                while !Task.isCancelled {
                    published += 1
                    server.hub.publish(.weight(sensor: "left", line: "W\(published)\n", shown: 7))
                    try? await Task.sleep(for: .milliseconds(20))
                }
                return published
            }
            let first = try await client.readLine()
            let second = try await client.readLine()
            publisher.cancel()
            let published = await publisher.value
            #expect(first == "W1", "the first reading goes out at once")
            let number = Int(second?.dropFirst() ?? "") ?? 0
            #expect(number > 10 && number <= published, "the next only after many readings: \(second ?? "none")")
        }
    }

    @Test("a client that has not sent ?WATCH receives no reports")
    func silentUntilWatch() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            for publication in Self.publications { server.hub.publish(publication) }
            try await client.send("?VERSION;\n")
            let lines = try await client.readLines { $0.hasPrefix("{\"class\":\"VERSION\"") }
            #expect(lines.count == 1)
        }
    }

    @Test("binary watchers get the acknowledgement, then only 10-byte frames of their sensors")
    func binaryFrames() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await client.send("?WATCH={\"binary\":true,\"sensors\":[\"right\"]};\n")
            let ack = try await client.readLine()
            #expect(
                ack == "{\"class\":\"WATCH\",\"enable\":true,\"sensors\":[\"right\"],\"raw\":false,\"binary\":true}")

            let first = BinaryFrame(sensorIndex: 1, flags: [.stable, .calibrated], grams: 12.5, raw: -1234)
            let second = BinaryFrame(sensorIndex: 1, flags: [.overload], grams: 5000, raw: 8_388_607)
            server.hub.publish(
                .weight(
                    sensor: "left", line: "W-left\n", frame: BinaryFrame(sensorIndex: 0, flags: [], grams: 1, raw: 1)))
            server.hub.publish(.weight(sensor: "right", line: "W-right\n", frame: first))
            server.hub.publish(.raw(sensor: "right", line: "R-right\n"))
            server.hub.publish(.event(sensor: "right", line: "E-right\n"))
            server.hub.publish(.weight(sensor: "right", line: "W-right\n", frame: second))
            // Any JSON line or left frame in between would shift the framing of the second frame.
            let bytes = try #require(try await client.readBytes(2 * BinaryFrame.size))
            #expect(BinaryFrame(decoding: bytes[0..<10]) == first)
            #expect(BinaryFrame(decoding: bytes[10..<20]) == second)

            // Requests are carried out but answered silently; turning binary off answers in JSON.
            try await client.send("?TARE={\"sensor\":\"left\"};\n?WATCH={\"binary\":false};\n")
            #expect(
                try await client.readLine()
                    == "{\"class\":\"WATCH\",\"enable\":true,\"sensors\":[],\"raw\":false,\"binary\":false}")
        }
    }

    @Test("?WATCH of a sensor that does not exist is refused with the known names")
    func unknownSensor() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await client.send("?WATCH={\"sensors\":[\"middle\"]};\n")
            let line = try await client.readLine()
            #expect(
                line
                    == ProtocolError("?WATCH: unknown sensor \"middle\"; known: left, right").report.dropLast()
                    .description)
        }
    }

    @Test("every published report reaches every watching client, in order")
    func fanOut() async throws {
        try await ServerFixture.with { server in
            var clients: [TestClient] = []
            for _ in 0..<8 {
                let client = try await server.connect()
                try await server.watch(client)
                clients.append(client)
            }
            for number in 0..<300 { server.hub.publish(numberedReport(number)) }
            for client in clients {
                let lines = try await client.readLines { sequenceNumber($0) == 299 }
                #expect(lines.compactMap(sequenceNumber) == Array(0..<300))
                #expect(lines.count == 300)
            }
        }
    }

    @Test("past the client limit a new client gets one ERROR line and is closed; a freed place is reused")
    func clientLimit() async throws {
        try await ServerFixture.with(.init(maximumClients: 2)) { server in
            let first = try await server.connect()
            let second = try await server.connect()
            let refused = try TestClient(path: server.path)
            let lines = try await refused.readToEnd()
            #expect(lines == ["{\"class\":\"ERROR\",\"message\":\"too many clients (limit 2); try again later\"}"])

            _ = first
            try await second.send("?POLL;\n")
            #expect(try await second.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.poll(1)))

            first.shutdownWrite()
            #expect(try await first.readToEnd().isEmpty)
            try await waitFor("the hub to drop the closed client", describe: { "\(server.hub.clientCount) clients" }) {
                server.hub.clientCount == 1
            }
            _ = try await server.connect()
        }
    }

    @Test("a slow reader loses its oldest reports, is told how many when it reads again, and a fast one loses nothing")
    func slowClientOverflow() async throws {
        let configuration = ClientHub.Configuration(
            queueCapacity: 32, stallTimeout: .seconds(600), writeBufferLimit: 4096)
        try await ServerFixture.with(configuration) { server in
            let slow = try await server.connect(receiveBuffer: 4096)
            let fast = try await server.connect()
            try await server.watch(slow)
            try await server.watch(fast)

            let total = 4000
            let batch = 20
            var fastLines: [String] = []
            for start in stride(from: 0, to: total, by: batch) {
                for number in start..<start + batch { server.hub.publish(numberedReport(number, padding: 200)) }
                // The fast client keeps up: the producer's pace is one batch per round trip.
                fastLines += try await fast.readLines { sequenceNumber($0) == start + batch - 1 }
            }
            #expect(fastLines.compactMap(sequenceNumber) == Array(0..<total))
            #expect(fastLines.allSatisfy { droppedCount($0) == nil })

            let slowLines = try await slow.readLines { sequenceNumber($0) == total - 1 }
            var received: [Int] = []
            var dropped = 0
            var previous = -1
            var gapsExplained = true
            var pendingDrop = 0
            for line in slowLines {
                if let count = droppedCount(line) {
                    dropped += count
                    pendingDrop += count
                } else if let number = sequenceNumber(line) {
                    // An OVERFLOW line comes right where reports are missing, and says how many.
                    if number - previous - 1 != pendingDrop { gapsExplained = false }
                    pendingDrop = 0
                    previous = number
                    received.append(number)
                }
            }
            #expect(dropped > 0)
            #expect(received.count + dropped == total)
            #expect(received == received.sorted())
            #expect(gapsExplained)
            #expect(received.last == total - 1)
        }
    }

    @Test("a client whose queue stays full for the stall timeout is disconnected; the others carry on")
    func stuckClientDisconnected() async throws {
        let configuration = ClientHub.Configuration(
            queueCapacity: 16, stallTimeout: .milliseconds(200), writeBufferLimit: 4096)
        try await ServerFixture.with(configuration) { server in
            let stuck = try await server.connect(receiveBuffer: 4096)
            let fast = try await server.connect()
            try await server.watch(stuck)
            try await server.watch(fast)

            var number = 0
            var fastNumbers: [Int] = []
            // Publish until the hub lets go of the stuck client (bounded, so a bug fails instead of hanging).
            for _ in 0..<20_000 where server.hub.clientCount == 2 {
                for _ in 0..<10 {
                    server.hub.publish(numberedReport(number, padding: 200))
                    number += 1
                }
                let target = number - 1
                fastNumbers += try await fast.readLines { sequenceNumber($0) == target }.compactMap(sequenceNumber)
            }
            #expect(server.hub.clientCount == 1)
            #expect(fastNumbers == Array(0..<number))
            // The stuck client finds the end of the stream once it reads what was already sent.
            let leftovers = try await stuck.readToEnd()
            #expect(leftovers.count < number)
        }
    }

    struct GarbageCase: Sendable, CustomTestStringConvertible {
        var line: String
        var message: String
        var testDescription: String { line }
    }

    @Test(
        "a malformed request gets an ERROR line that says what is wrong, and the connection stays open",
        arguments: [
            GarbageCase(
                line: "hello", message: "a request starts with '?', such as ?POLL; or ?WATCH={\\\"enable\\\":true};"),
            GarbageCase(
                line: "?NOPE;",
                message: "unknown request ?NOPE; known: ?WATCH, ?POLL, ?DEVICES, ?VERSION, ?TARE, ?ZERO, ?CALIBRATE, "
                    + "?TARES, ?ALERT, ?SESSION, ?COUNT, ?CHECK, ?CLIENT"),
            GarbageCase(
                line: "?TARE;", message: "?TARE needs a JSON argument, such as ?TARE={\\\"sensor\\\":\\\"left\\\"};"),
            GarbageCase(line: "?WATCH={not json};", message: "?WATCH: the argument is not valid JSON"),
            GarbageCase(
                line: "\u{1}\u{2}\u{FF}binary",
                message: "a request starts with '?', such as ?POLL; or ?WATCH={\\\"enable\\\":true};")
        ])
    func garbage(_ garbage: GarbageCase) async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            let watcher = try await server.connect()
            try await server.watch(watcher)
            try await client.send(garbage.line + "\n?POLL;\n")
            #expect(try await client.readLine() == "{\"class\":\"ERROR\",\"message\":\"\(garbage.message)\"}")
            #expect(try await client.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.poll(1)))
            server.hub.publish(numberedReport(1))
            #expect(try await watcher.readLine().flatMap(sequenceNumber) == 1)
        }
    }

    @Test("a line over the length limit is refused without waiting for its end, then the connection closes")
    func overlongLine() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            let other = try await server.connect()
            // No newline: the daemon must not wait for one.
            try await client.send("?POLL;" + String(repeating: "x", count: Request.maximumLineLength + 10))
            let lines = try await client.readToEnd()
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("{\"class\":\"ERROR\",\"message\":\"request longer than 4096 bytes") == true)
            try await other.send("?POLL;\n")
            #expect(try await other.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.poll(1)))
        }
    }

    @Test(
        "thousands of lines in one write are answered in order without the session recursing or growing without bound")
    func pipelinedFlood() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            // Within the flood limit: every line is answered, in order.
            try await client.send("?POLL;\n" + String(repeating: "x\n", count: 1000) + "?POLL;\n")
            let lines = try await client.readLines { $0 == ScaleRequestHandler.line(ScaleRequestHandler.poll(2)) }
            #expect(lines.count == 1002)
            #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("{\"class\":\"ERROR\"") })

            // Past it, while a request is still being answered: refused and closed.
            let flooder = try await server.connect()
            try await flooder.send("?POLL;\n" + String(repeating: "?VERSION;\n", count: 3000))
            let flooded = try await flooder.readToEnd()
            #expect(
                flooded.last
                    == ProtocolError(
                        "more than 1024 requests without reading the replies; read the replies before sending more"
                    ).report.dropLast().description)
            #expect(flooded.count < 3000)
        }
    }

    @Test("a client that half-closes after its last request still gets the answer, then the daemon closes")
    func halfClose() async throws {
        try await ServerFixture.with { server in
            let client = try await server.connect()
            try await client.send("?DEVICES;\n?POLL;")
            client.shutdownWrite()
            let lines = try await client.readToEnd()
            #expect(
                lines == [
                    ScaleRequestHandler.line(ScaleRequestHandler.devices),
                    ScaleRequestHandler.line(ScaleRequestHandler.poll(1))
                ])
        }
    }

    @Test("a watcher that vanishes mid-stream does not disturb the others")
    func vanishingClient() async throws {
        try await ServerFixture.with { server in
            let survivor = try await server.connect()
            try await server.watch(survivor)
            do {
                let vanishing = try await server.connect()
                try await server.watch(vanishing)
                for number in 0..<100 { server.hub.publish(numberedReport(number, padding: 500)) }
            }
            for number in 100..<200 { server.hub.publish(numberedReport(number, padding: 500)) }
            let lines = try await survivor.readLines { sequenceNumber($0) == 199 }
            #expect(lines.compactMap(sequenceNumber) == Array(0..<200))
            try await waitFor("the hub to drop the closed client", describe: { "\(server.hub.clientCount) clients" }) {
                server.hub.clientCount == 1
            }
        }
    }
}

import PlumProtocol
import PlumTransport
import Testing

#if canImport(Glibc)
    import Glibc
    import PlumTestSupport
#endif

/// A small real MT-SICS balance: 100.00 g stable, tare 25.00 g, zeroing succeeds; `SIR`
/// streams numbered dynamic weights.
struct BenchBalance: MTSICSHandler {
    func respond(to command: MTSICSCommand, from client: ClientInfo) async -> String {
        switch command {
        case .reset, .inquiry(4): MTSICSResponse.text("I4", "PLUM0001")
        case .inquiry(0): MTSICSResponse.commandList()
        case .inquiry: MTSICSResponse.text("I1", "0")
        case .stableWeight, .immediateWeight: MTSICSResponse.weight(id: "S", status: .stable, grams: 100, decimals: 2)
        case .immediateWeightRepeat: MTSICSResponse.weight(id: "S", status: .dynamic, grams: 0, decimals: 2)
        case .zero, .zeroImmediately: MTSICSResponse.done("Z")
        case .tare, .tareImmediately: MTSICSResponse.weight(id: "T", status: .stable, grams: 25, decimals: 2)
        case .tareQuery, .tarePreset: MTSICSResponse.tareValue(grams: 25, decimals: 2)
        case .tareClear: MTSICSResponse.done("TAC")
        }
    }

    func repeatedWeights() -> AsyncStream<String> {
        AsyncStream { continuation in
            let producer = Task {
                var grams = 1.0
                while !Task.isCancelled {
                    continuation.yield(MTSICSResponse.weight(id: "S", status: .dynamic, grams: grams, decimals: 2))
                    grams += 1
                    try? await Task.sleep(for: .milliseconds(5))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
    }
}

@Suite("MT-SICS over a real Unix socket", .serialized)
struct MTSICSSocketTests {
    private func withBalance(maximumClients: Int = 256, _ body: (TestClient) async throws -> Void) async throws {
        try await withBalanceServer(maximumClients: maximumClients) { path in try await body(try TestClient(path: path))
        }
    }

    private func withBalanceServer(maximumClients: Int = 256, _ body: (String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/mtsics.sock"
        let server = SocketServer(
            hub: ClientHub(configuration: .init(maximumClients: maximumClients, idleTimeout: nil)),
            requestHandler: ScaleRequestHandler(),
            endpoints: [],
            mtsics: .init(endpoints: [.unixSocket(path: path)], handler: BenchBalance()), logger: quietLogger)
        try await server.start()
        do {
            try await body(path)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test("past max_clients an MT-SICS connection is closed at once, and a place frees when one leaves")
    func connectionLimit() async throws {
        try await withBalanceServer(maximumClients: 2) { path in
            let first = try TestClient(path: path)
            let second = try TestClient(path: path)
            for client in [first, second] {
                try await client.send("SI\r\n")
                #expect(try await client.readLine() == "S S     100.00 g\r")
            }
            let third = try TestClient(path: path)
            try? await third.send("SI\r\n")
            #expect(try await third.readLine() == nil, "the third connection is closed without an answer")
            Glibc.shutdown(first.descriptor, Int32(SHUT_RDWR))
            // The server frees the place once it has seen the close: until then a new connection
            // is turned away, and the next try may get in.
            try await waitFor("a place to free when a connection closes") {
                let again = try TestClient(path: path)
                try? await again.send("SI\r\n")
                return try await again.readLine() == "S S     100.00 g\r"
            }
        }
    }

    @Test(
        "a command the balance does not know is answered ES and the connection stays usable",
        arguments: ["XYZ", "s", "SI 1", "?POLL;", "I9"])
    func unknownCommand(_ command: String) async throws {
        try await withBalance { client in
            try await client.send(command + "\r\nSI\r\n")
            #expect(try await client.readLine() == "ES\r")
            #expect(try await client.readLine() == "S S     100.00 g\r")
        }
    }

    struct DispatchCase: Sendable, CustomTestStringConvertible {
        var command: String
        var response: [String]
        var testDescription: String { command }
    }

    @Test(
        "known commands reach the handler and its exact response is sent back",
        arguments: [
            DispatchCase(command: "S", response: ["S S     100.00 g"]),
            DispatchCase(command: "Z", response: ["Z A"]),
            DispatchCase(command: "T", response: ["T S      25.00 g"]),
            DispatchCase(command: "TA", response: ["TA A      25.00 g"]),
            DispatchCase(command: "TAC", response: ["TAC A"]),
            DispatchCase(command: "I4", response: ["I4 A \"PLUM0001\""]),
            DispatchCase(command: "@", response: ["I4 A \"PLUM0001\""])
        ])
    func dispatch(_ given: DispatchCase) async throws {
        try await withBalance { client in
            // A bare LF is accepted as well as CR LF.
            try await client.send(given.command + "\n")
            for expected in given.response {
                #expect(try await client.readLine() == expected + "\r")
            }
        }
    }

    @Test("a line longer than any command is answered ES and the connection is closed")
    func overlongLine() async throws {
        try await withBalance { client in
            try await client.send(String(repeating: "S", count: 300))
            #expect(try await client.readToEnd() == ["ES\r"])
        }
    }

    @Test("SIR streams weights until @, which answers like I4 and ends the stream")
    func repeatUntilReset() async throws {
        try await withBalance { client in
            try await client.send("SIR\r\n")
            #expect(try await client.readLine() == "S D       0.00 g\r")
            for _ in 0..<3 {
                #expect(try await client.readLine()?.hasPrefix("S D ") == true)
            }
            try await client.send("@\r\n")
            let untilReset = try await client.readLines { $0 == "I4 A \"PLUM0001\"\r" }
            #expect(untilReset.dropLast().allSatisfy { $0.hasPrefix("S D ") })
            // Nothing of the stream may follow the reset: the next line is SI's answer.
            try await client.send("SI\r\n")
            #expect(try await client.readLine() == "S S     100.00 g\r")
        }
    }
}

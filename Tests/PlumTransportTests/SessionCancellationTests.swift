import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import PlumTransport
import Synchronization
import Testing

/// Answers nothing until its task is cancelled, and counts the commands that arrived and the
/// ones that were cancelled: a stand-in for a tare or an `S` waiting for a stable load.
final class HangingHandler: RequestHandler, MTSICSHandler {
    let arrived = Atomic(0)
    let cancelled = Atomic(0)

    func reply(to request: Request, from client: ClientInfo) async -> [Report] {
        await hang()
        return [.error(message: "answered after the client left")]
    }

    func respond(to command: MTSICSCommand, from client: ClientInfo) async -> String {
        await hang()
        return "S I\r\n"
    }

    func repeatedWeights() -> AsyncStream<String> { AsyncStream { $0.finish() } }

    private func hang() async {
        arrived.add(1, ordering: .relaxed)
        // Task.sleep ends early, throwing, when the task is cancelled: that is the signal.
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        cancelled.add(1, ordering: .relaxed)
    }
}

@Suite("Both sessions share one ordered-command queue", .ownThreads)
struct SessionCancellationTests {
    @Test(
        "a client that leaves cancels its command in flight, on the JSON socket and on MT-SICS alike",
        arguments: ["json", "mtsics"])
    func closeCancelsInFlight(listener: String) async throws {
        let directory = try TemporaryDirectory()
        let handler = HangingHandler()
        let json = directory.path + "/plumscale.sock"
        let mtsics = directory.path + "/mtsics.sock"
        let server = SocketServer(
            hub: ClientHub(), requestHandler: handler, endpoints: [.unixSocket(path: json)],
            mtsics: .init(endpoints: [.unixSocket(path: mtsics)], handler: handler), logger: quietLogger)
        try await server.start()
        do {
            do {
                let client = try TestClient(path: listener == "json" ? json : mtsics)
                if listener == "json" { _ = try await client.readLine() }  // the VERSION greeting
                try await client.send(listener == "json" ? "?POLL;\n" : "S\r\n")
                try await offPool {
                    try waitUntil("the command to reach the handler") { handler.arrived.load(ordering: .relaxed) == 1 }
                }
                #expect(handler.cancelled.load(ordering: .relaxed) == 0, "cancelled while the client was still there")
            }  // the client closes its socket here
            try await offPool {
                try waitUntil("the \(listener) session to cancel its command in flight once the client closed") {
                    handler.cancelled.load(ordering: .relaxed) == 1
                }
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}

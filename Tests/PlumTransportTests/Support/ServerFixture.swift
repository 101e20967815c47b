import Logging
import PlumProtocol
import PlumTestSupport
import PlumTransport
import Synchronization

/// A small real request handler: answers `?POLL` with a numbered `POLL` line, `?DEVICES` with
/// the two sensors, and `?TARE`/`?ZERO` with a `TARE`/`ZERO` line, or an error for an unknown
/// sensor.
final class ScaleRequestHandler: RequestHandler {
    static let sensors = ["left", "right"]
    private let polls = Atomic(0)

    func reply(to request: Request, from client: ClientInfo) async -> [Report] {
        switch request {
        case .poll:
            return [Self.poll(polls.add(1, ordering: .relaxed).newValue)]
        case .devices:
            return [Self.devices]
        case .tare(let sensor), .zero(let sensor):
            guard Self.sensors.contains(sensor) else {
                return [.error(message: "unknown sensor \"\(sensor)\"")]
            }
            return [Self.command(request.name == "?TARE" ? "TARE" : "ZERO", sensor)]
        case .calibrate(let step):
            return [.calibrate(CalibrationReply(sensor: step.sensor, step: step.step.rawValue, ok: true))]
        case .session(let session):
            return [.session(SessionReport(action: session.action.rawValue, ok: true, message: "done"))]
        case .count(let count):
            return [.count(CountReply(sensor: count.sensor, ok: true, pieces: count.pieces, message: "done"))]
        case .check(let check):
            return [.check(CheckReply(sensor: check.sensor, ok: true, target: check.target, message: "done"))]
        case .watch, .version:
            return [.error(message: "the transport answers \(request) itself")]
        case .presetTare, .useTare, .tares, .setAlert:
            return [.error(message: "this handler keeps no settings")]
        case .client(let announcement):
            return [.client(ClientReply(name: announcement.name, connections: 1))]
        }
    }

    /// The `number`-th `POLL` reply, numbered in its `active` field so a test sees the order.
    static func poll(_ number: Int) -> Report {
        .poll(PollReport(time: 0, active: number, total: 0, weights: []))
    }

    static let devices = Report.devices(DevicesReport(devices: []))

    static func command(_ name: String, _ sensor: String) -> Report {
        .command(CommandReply(command: name, sensor: sensor, ok: true))
    }

    /// A reply as the client reads it: one line, without its newline.
    static func line(_ report: Report) -> String { String(report.line.dropLast()) }

    func knownSensors() async -> [String]? { Self.sensors }
}

/// A running server on a Unix socket in a temporary directory.
struct ServerFixture {
    let directory: TemporaryDirectory
    let server: SocketServer
    var path: String { directory.path + "/plumscale.sock" }
    var hub: ClientHub { server.hub }

    /// Starts a server, runs `body`, and shuts the server down however `body` ends.
    static func with(
        _ configuration: ClientHub.Configuration = .withoutIdleClose,
        _ body: (ServerFixture) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let server = SocketServer(
            hub: ClientHub(configuration: configuration), requestHandler: ScaleRequestHandler(),
            endpoints: [.unixSocket(path: directory.path + "/plumscale.sock")], logger: quietLogger)
        try await server.start()
        let fixture = ServerFixture(directory: directory, server: server)
        do {
            try await body(fixture)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// Connects a client and reads its `VERSION` greeting.
    func connect(receiveBuffer: Int32? = nil) async throws -> TestClient {
        let client = try TestClient(path: path, receiveBuffer: receiveBuffer)
        let greeting = try await client.readLine()
        guard greeting?.hasPrefix("{\"class\":\"VERSION\"") == true else {
            throw TestClient.Failure(description: "expected the VERSION greeting, got \(greeting ?? "end of stream")")
        }
        return client
    }

    /// Subscribes `client` and waits for the `WATCH` acknowledgement.
    func watch(_ client: TestClient, _ options: String = "{\"enable\":true}") async throws {
        try await client.send("?WATCH=\(options);\n")
        _ = try await client.readLines { $0.hasPrefix("{\"class\":\"WATCH\"") }
    }
}

/// A `WEIGHT`-like report with a sequence number and padding, so tests can check order and
/// fill socket buffers quickly.
func numberedReport(_ number: Int, sensor: String = "left", padding: Int = 0) -> Publication {
    let pad = padding > 0 ? ",\"pad\":\"" + String(repeating: "x", count: padding) + "\"" : ""
    return .weight(
        sensor: sensor,
        line: "{\"class\":\"WEIGHT\",\"sensor\":\"\(sensor)\",\"seq\":\(number)\(pad)}\n"
    )
}

/// The `seq` of a numbered report line, or nil for another line.
func sequenceNumber(_ line: String) -> Int? {
    guard line.hasPrefix("{\"class\":\"WEIGHT\""), let range = line.firstRange(of: "\"seq\":") else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
}

/// The `dropped` count of an `OVERFLOW` line, or nil for another line.
func droppedCount(_ line: String) -> Int? {
    guard line.hasPrefix("{\"class\":\"OVERFLOW\""), let range = line.firstRange(of: "\"dropped\":") else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
}

extension ClientHub.Configuration {
    /// The daemon's bounds with no idle close: a TCP client may not change the scale, so the
    /// 10 s idle close applies to it, and on a busy machine it once arrived mid-test. Only the
    /// tests of the idle close itself set a timeout.
    static let withoutIdleClose = ClientHub.Configuration(idleTimeout: nil)
}

import Foundation
import PlumProtocol
import PlumSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for plumscaled on a real Unix socket, for the tests of its clients (PlumClient's
/// ``DaemonLink``, the web, the MQTT bridge): it greets with VERSION, answers `?WATCH`,
/// `?DEVICES`, `?POLL`, `?TARE`, `?ZERO` and `?CALIBRATE` as the daemon does, records every
/// request, pushes the reports a test gives to the connections that watch, and can be stopped
/// and started again on the same path, as a daemon restart is.
///
/// Tests that need the real engine (the simulated sensors, the filters) run the real plumscaled
/// through ``DaemonFixture``; this fake is for what the client does with the protocol.
/// Call ``stop()`` when done: its threads keep it alive until then.
package final class FakeDaemon: Sendable {
    package let path: String
    /// The daemon's sensors, in its order; a request for another is refused with ERROR.
    package let sensors: [String]
    package let release: String

    private final class Connection: Sendable {
        let descriptor: Int32
        /// The subscription in force; nil when not watching.
        let watch = Mutex<WatchOptions?>(nil)
        init(descriptor: Int32) { self.descriptor = descriptor }
    }

    private struct State {
        var listener: Int32?
        var connections: [Int: Connection] = [:]
        var accepted = 0
        var requests: [Request] = []
        var responder: (@Sendable (Request) -> [String]?)?
    }

    private let state = Mutex(State())

    /// Listens at `path` (which must not exist), as a daemon with `sensors`.
    package init(path: String, sensors: [String] = ["left", "right"], release: String = "0.0.0-fake") throws {
        self.path = path
        self.sensors = sensors
        self.release = release
        try start()
    }

    /// Listens again on ``path`` after ``stop()``, as a restarted daemon.
    package func start() throws {
        let address = try UnixSocketAddress(path: path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw FixtureError("socket(AF_UNIX): \(String(cString: strerror(errno)))") }
        guard address.withSockaddr({ bind(listener, $0, $1) }) == 0, Glibc.listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw FixtureError("the fake daemon cannot listen at \(path): \(reason)")
        }
        let started = state.withLock { state in
            guard state.listener == nil else { return false }
            state.listener = listener
            return true
        }
        guard started else {
            close(listener)
            throw FixtureError("the fake daemon at \(path) is already listening")
        }
        Thread.detachNewThread { self.acceptConnections(on: listener) }
    }

    /// Closes the listener and every connection and removes the socket, as a daemon that stops
    /// does: clients see the connection end and the next connect refused.
    package func stop() {
        state.withLock { state in
            if let listener = state.listener { shutdown(listener, Int32(SHUT_RDWR)) }
            state.listener = nil
            for connection in state.connections.values { shutdown(connection.descriptor, Int32(SHUT_RDWR)) }
        }
        unlink(path)
    }

    /// From now on `responder` answers first: the lines it returns are sent instead of the
    /// usual answer (a refusal, a slow sensor); nil leaves the request to the usual answer.
    package func respond(_ responder: @escaping @Sendable (Request) -> [String]?) {
        state.withLock { $0.responder = responder }
    }

    /// Sends `line` (a report as JSON) to every connection that watches, as a reading would be.
    package func push(_ line: String) {
        state.withLock { state in
            for connection in state.connections.values where connection.watch.withLock({ $0?.enable == true }) {
                Self.write(line, to: connection.descriptor)
            }
        }
    }

    /// Every request received, in order, over all connections.
    package var requests: [Request] { state.withLock { $0.requests } }
    /// Connections accepted since the fake was made.
    package var acceptedConnections: Int { state.withLock { $0.accepted } }
    /// The subscriptions in force now, one per watching connection.
    package var watches: [WatchOptions] {
        state.withLock { state in state.connections.values.compactMap { $0.watch.withLock { $0 } } }
    }

    package var isListening: Bool { state.withLock { $0.listener != nil } }

    private func acceptConnections(on listener: Int32) {
        var next = 0
        while true {
            // accept(2), then close-on-exec: the Glibc module leaves accept4 out. A child a test
            // starts must not hold the connection open after the fake closes it.
            let descriptor = Glibc.accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR { continue }
                break
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let connection = Connection(descriptor: descriptor)
            next += 1
            let id = next
            let kept = state.withLock { state in
                guard state.listener == listener else { return false }
                state.accepted += 1
                state.connections[id] = connection
                Self.write(versionLine, to: descriptor)
                return true
            }
            guard kept else {
                close(descriptor)
                break
            }
            Thread.detachNewThread { self.serve(connection, id: id) }
        }
        close(listener)
    }

    private func serve(_ connection: Connection, id: Int) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[..<count])
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                answer(line, on: connection)
            }
            if buffer.count > Request.maximumLineLength { break reading }
        }
        state.withLock { _ = $0.connections.removeValue(forKey: id) }
        close(connection.descriptor)
    }

    private func answer(_ line: String, on connection: Connection) {
        state.withLock { state in
            let request: Request
            do {
                request = try Request.parse(line[...])
            } catch {
                Self.write(Self.errorLine("\(error)"), to: connection.descriptor)
                return
            }
            state.requests.append(request)
            if case .watch(let options) = request { connection.watch.withLock { $0 = options.enable ? options : nil } }
            for reply in state.responder?(request) ?? usualAnswer(to: request) {
                Self.write(reply, to: connection.descriptor)
            }
        }
    }

    /// What plumscaled answers, in the shape it answers.
    private func usualAnswer(to request: Request) -> [String] {
        switch request {
        case .watch(let options):
            let names = options.sensors.map(Self.quoted).joined(separator: ",")
            return [#"{"class":"WATCH","enable":\#(options.enable),"sensors":[\#(names)],"raw":\#(options.raw)}"#]
        case .version:
            return [versionLine]
        case .devices:
            return [devicesLine]
        case .poll:
            return [#"{"class":"POLL","time":1795388111,"active":\#(sensors.count),"weights":[]}"#]
        case .tare(let sensor):
            return [unknown(sensor) ?? #"{"class":"TARE","sensor":\#(Self.quoted(sensor)),"ok":true,"tare":12.5}"#]
        case .zero(let sensor):
            return [unknown(sensor) ?? #"{"class":"ZERO","sensor":\#(Self.quoted(sensor)),"ok":true,"offset":0}"#]
        case .calibrate(let step):
            return [
                unknown(step.sensor)
                    ?? #"{"class":"CALIBRATE","sensor":\#(Self.quoted(step.sensor)),"step":"\#(step.step.rawValue)","#
                    + #""ok":true,"points":2,"grams":[0,100],"residuals":[0.01,-0.01],"quality":"good"}"#
            ]
        case .presetTare(let sensor, let grams):
            return [
                unknown(sensor)
                    ?? Report.command(CommandReply(command: "TARE", sensor: sensor, ok: true, tare: grams)).object
                    .finished
            ]
        case .useTare(let sensor, let name):
            // An empty library, as a fresh daemon has: a test that needs tares gives a responder.
            let reply = CommandReply(
                command: "TARE", sensor: sensor, ok: false, reason: "unknownTare", message: "no named tare \"\(name)\"")
            return [unknown(sensor) ?? Report.command(reply).object.finished]
        case .tares:
            return [Report.tares(TareLibraryReport(tares: [])).object.finished]
        case .setAlert(let change):
            return [Self.errorLine("no alert named \"\(change.name)\"; the configuration has no [[alert]]")]
        case .session(let session):
            return [
                #"{"class":"SESSION","action":"\#(session.action.rawValue)","ok":false,"#
                    + #""message":"the fake daemon keeps no sessions","sessions":[]}"#
            ]
        case .count(let count):
            return [
                unknown(count.sensor)
                    ?? #"{"class":"COUNT","sensor":\#(Self.quoted(count.sensor)),"ok":false,"reason":"notStable","#
                    + #""message":"the fake daemon does not count"}"#
            ]
        case .check(let check):
            return [
                unknown(check.sensor)
                    ?? #"{"class":"CHECK","sensor":\#(Self.quoted(check.sensor)),"ok":false,"reason":"invalidWeight","#
                    + #""message":"the fake daemon does not check-weigh"}"#
            ]
        case .client(let announcement):
            // Acknowledged as plumscaled does; the fake keeps no list (``requests`` has them).
            return [Report.client(ClientReply(name: announcement.name, connections: 1)).object.finished]
        }
    }

    private var versionLine: String {
        #"{"class":"VERSION","release":\#(Self.quoted(release)),"proto_major":1,"proto_minor":5}"#
    }

    /// `?DEVICES` for ``sensors``: every one a simulated HX711 that is fine.
    package var devicesLine: String {
        let devices = sensors.enumerated().map { index, sensor in
            #"{"sensor":\#(Self.quoted(sensor)),"index":\#(index),"kind":"hx711","wiring":"sim","state":"ok","#
                + #""rate":10,"nominal_rate":10,"published":50,"discarded":{},"not_ready":0,"faults":0,"#
                + #""notices":[],"calibrated":true}"#
        }
        return #"{"class":"DEVICES","devices":[\#(devices.joined(separator: ","))],"uptime":12.5}"#
    }

    private func unknown(_ sensor: String) -> String? {
        guard !sensors.contains(sensor) else { return nil }
        return Self.errorLine(
            "unknown sensor \"\(sensor)\"; sensors: \(sensors.map { "\"\($0)\"" }.joined(separator: ", "))")
    }

    private static func errorLine(_ message: String) -> String {
        #"{"class":"ERROR","message":\#(quoted(message))}"#
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func write(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

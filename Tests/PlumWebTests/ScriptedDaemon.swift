import PlumProtocol
import PlumWeb
import Synchronization

/// A daemon for the web's tests: each `watch()` opens a connection whose reports the test
/// pushes, and `send` records the request and answers as plumscaled would for a tare, a zero
/// or a calibration step. The process-level browser test runs the real plumscaled instead.
final class ScriptedDaemon: ScaleDaemon {
    private struct State {
        var connections: [AsyncThrowingStream<Report, any Error>.Continuation] = []
        var requests: [Request] = []
        var refuseConnections = false
    }

    private let state = Mutex(State())

    func watch() async throws -> AsyncThrowingStream<Report, any Error> {
        try state.withLock { state in
            if state.refuseConnections { throw ConnectionRefused() }
            let (stream, continuation) = AsyncThrowingStream<Report, any Error>.makeStream()
            state.connections.append(continuation)
            // As plumscaled does, the subscription in force comes first.
            continuation.yield(.watch(WatchOptions()))
            return stream
        }
    }

    func devices() async throws -> [DevicesReport.Device] {
        state.withLock { $0.requests.append(.devices) }
        return try Self.deviceList()
    }

    func tare(sensor: String) async throws -> CommandReply {
        try reply(.tare(sensor: sensor), #"{"class":"TARE","sensor":"\#(sensor)","ok":true,"tare":12.5}"#)
    }

    func zero(sensor: String) async throws -> CommandReply {
        try reply(
            .zero(sensor: sensor),
            #"{"class":"ZERO","sensor":"\#(sensor)","ok":false,"reason":"notStable","message":"not stable"}"#)
    }

    func calibrate(_ step: CalibrationRequest) async throws -> CalibrationReply {
        state.withLock { $0.requests.append(.calibrate(step)) }
        if step.sensor == "middle" { throw DaemonRefusal("unknown sensor \"middle\"; sensors: \"left\", \"right\"") }
        guard
            case .calibrate(let reply) = try Report.decode(
                Substring(
                    #"{"class":"CALIBRATE","sensor":"\#(step.sensor)","step":"\#(step.step.rawValue)","ok":true,"#
                        + #""points":2,"grams":[0,100],"residuals":[0.01,-0.01],"quality":"good"}"#))
        else { throw NotScripted() }
        return reply
    }

    private func reply(_ request: Request, _ line: String) throws -> CommandReply {
        state.withLock { $0.requests.append(request) }
        guard case .command(let reply) = try Report.decode(Substring(line)) else { throw NotScripted() }
        return reply
    }

    static func deviceList() throws -> [DevicesReport.Device] {
        guard case .devices(let report) = try Report.decode(Substring(devicesLine)) else { throw NotScripted() }
        return report.devices
    }

    struct NotScripted: Error {}

    /// Pushes a report on the newest connection.
    func push(_ report: Report) {
        _ = state.withLock { $0.connections.last?.yield(report) }
    }

    /// Ends the newest connection, as a daemon restart does.
    func dropConnection() {
        state.withLock { $0.connections.last?.finish() }
    }

    var connectionCount: Int { state.withLock { $0.connections.count } }
    var requests: [Request] { state.withLock { $0.requests } }

    struct ConnectionRefused: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    static let devicesLine =
        #"{"class":"DEVICES","devices":[{"sensor":"left","index":0,"kind":"hx711","wiring":"sim","state":"ok","#
        + #""rate":10.1,"nominal_rate":10,"published":50,"discarded":{"spike":2},"not_ready":0,"faults":0,"#
        + #""notices":[],"calibrated":true},{"sensor":"right","index":1,"kind":"hx711","wiring":"sim","#
        + #""state":"settling","rate":9.9,"nominal_rate":10,"published":48,"discarded":{},"not_ready":0,"#
        + #""faults":0,"notices":[],"calibrated":true}]}"#
}

/// A WEIGHT report as plumscaled sends it.
func weight(
    _ sensor: String, grams: Double?, time: Double = 1_795_388_111, stable: Bool = true,
    heaviest: Bool = false, overload: Bool = false, percent: Double = 25
) throws -> Report {
    let gramsText = grams.map { "\($0)" } ?? "null"
    let display = overload ? "100%+" : grams.map { "\(($0 * 10).rounded() / 10) g" } ?? "no signal"
    return try Report.decode(
        Substring(
            #"{"class":"WEIGHT","sensor":"\#(sensor)","time":\#(time),"grams":\#(gramsText),"display":"\#(display)","#
                + #""unit":"g","percent":\#(percent),"stable":\#(stable),"overload":\#(overload),"underload":false,"#
                + ##""zero":false,"tare":0,"heaviest":\##(heaviest),"hue":90,"rgb":"#80ff00","calibrated":true}"##))
}

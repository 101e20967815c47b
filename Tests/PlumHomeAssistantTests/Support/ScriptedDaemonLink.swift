import PlumHomeAssistant
import PlumProtocol
import Synchronization

/// The daemon side of a bridge, scripted by the test: it says what the daemon would (connected,
/// reports, gone) and records the tare and zero requests that reach it. The process-level tests
/// run the real plumscaled instead.
final class ScriptedDaemonLink: ScaleDaemonLink {
    private let stream: AsyncStream<DaemonEvent>
    let continuation: AsyncStream<DaemonEvent>.Continuation
    private let requests = Mutex<[String]>([])
    private let gate = Mutex(Gate())

    /// While `holding`, requests wait in `waiting` until ``release()``; `running` counts, per pan,
    /// the requests inside ``perform(_:pan:)`` and `mostAtOnce` the highest count seen.
    private struct Gate {
        var holding = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var running: [String: Int] = [:]
        var mostAtOnce = 0
    }
    /// Per pan, the message of a refusal the daemon gives instead of doing it (`notStable`).
    private let refusals = Mutex<[String: String]>([:])

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: DaemonEvent.self)
    }

    func events() -> AsyncStream<DaemonEvent> { stream }

    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        requests.withLock { $0.append("\(action.rawValue) \(pan)") }
        gate.withLock {
            $0.running[pan, default: 0] += 1
            $0.mostAtOnce = max($0.mostAtOnce, $0.running[pan] ?? 0)
        }
        await withCheckedContinuation { continuation in
            gate.withLock { gate in
                if gate.holding { gate.waiting.append(continuation) } else { continuation.resume() }
            }
        }
        gate.withLock { $0.running[pan, default: 1] -= 1 }
        let refusal = refusals.withLock { $0[pan] }
        let answer = refusal.map { #""ok":false,"reason":"notStable","message":"\#($0)""# } ?? #""ok":true,"tare":12.5"#
        let line = #"{"class":"\#(action.rawValue.uppercased())","sensor":"\#(pan)",\#(answer)}"#
        guard case .command(let reply) = try Report.decode(Substring(line)) else { fatalError("not a reply") }
        return reply
    }

    var performed: [String] { requests.withLock { $0 } }

    /// Requests from now on wait until ``release()``, as a slow daemon would keep them.
    func hold() { gate.withLock { $0.holding = true } }

    /// Lets every waiting request, and those to come, through.
    func release() {
        let waiting = gate.withLock { gate in
            gate.holding = false
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The most requests for one pan that were inside the daemon at the same time.
    var mostAtOnce: Int { gate.withLock { $0.mostAtOnce } }

    /// From now on the daemon refuses every command on `pan` with `message`.
    func refuse(_ pan: String, message: String) { refusals.withLock { $0[pan] = message } }

    func send(_ event: DaemonEvent) { continuation.yield(event) }

    /// What `?DEVICES` answers (no sensors until a test says), and how often it was asked.
    private let devicesAnswer = Mutex((report: DevicesReport(devices: []), asked: 0))

    func devices() async throws -> DevicesReport {
        devicesAnswer.withLock {
            $0.asked += 1
            return $0.report
        }
    }

    /// From now on `?DEVICES` answers `report`.
    func answerDevices(_ report: DevicesReport) { devicesAnswer.withLock { $0.report = report } }

    var devicesAsked: Int { devicesAnswer.withLock { $0.asked } }

    /// What settings requests answer (an ERROR, as from a daemon before protocol 1.5, until a
    /// test gives a responder), and the requests asked.
    private let settingsAnswer = Mutex<(responder: (@Sendable (Request) -> Report)?, asked: [Request])>((nil, []))

    func settings(_ request: Request) async throws -> Report {
        let responder = settingsAnswer.withLock {
            $0.asked.append(request)
            return $0.responder
        }
        return responder?(request) ?? .error(message: "\(request.name) is not supported by this link")
    }

    /// From now on settings requests answer what `responder` gives; set it before `connected`.
    func answerSettings(_ responder: @escaping @Sendable (Request) -> Report) {
        settingsAnswer.withLock { $0.responder = responder }
    }

    var settingsAsked: [Request] { settingsAnswer.withLock { $0.asked } }
}

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
    /// Per pan, the message of a refusal the daemon gives instead of doing it (`notStable`).
    private let refusals = Mutex<[String: String]>([:])

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: DaemonEvent.self)
    }

    func events() -> AsyncStream<DaemonEvent> { stream }

    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        requests.withLock { $0.append("\(action.rawValue) \(pan)") }
        let refusal = refusals.withLock { $0[pan] }
        let answer = refusal.map { #""ok":false,"reason":"notStable","message":"\#($0)""# } ?? #""ok":true,"tare":12.5"#
        let line = #"{"class":"\#(action.rawValue.uppercased())","sensor":"\#(pan)",\#(answer)}"#
        guard case .command(let reply) = try Report.decode(Substring(line)) else { fatalError("not a reply") }
        return reply
    }

    var performed: [String] { requests.withLock { $0 } }

    /// From now on the daemon refuses every command on `pan` with `message`.
    func refuse(_ pan: String, message: String) { refusals.withLock { $0[pan] = message } }

    func send(_ event: DaemonEvent) { continuation.yield(event) }
}

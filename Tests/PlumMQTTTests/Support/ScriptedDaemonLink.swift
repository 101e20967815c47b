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

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: DaemonEvent.self)
    }

    func events() -> AsyncStream<DaemonEvent> { stream }

    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        requests.withLock { $0.append("\(action.rawValue) \(pan)") }
        let line = #"{"class":"\#(action.rawValue.uppercased())","sensor":"\#(pan)","ok":true,"tare":12.5}"#
        guard case .command(let reply) = try Report.decode(Substring(line)) else { fatalError("not a reply") }
        return reply
    }

    var performed: [String] { requests.withLock { $0 } }

    func send(_ event: DaemonEvent) { continuation.yield(event) }
}

internal import Logging
internal import PlumProtocol

/// What the bridge's state decided that only the actor can carry out, in order: messages for
/// the broker, subscriptions, log lines, the broker's state for the daemon's `?CLIENT` detail,
/// and questions for the daemon, whose answers come back to the state (``BridgeState``).
struct BridgeEffects {
    enum Effect {
        case log(Logger.Level, String)
        case publish(topic: String, payload: [UInt8], retain: Bool)
        case subscribe(String)
        case unsubscribe(String)
        /// The broker connection changed: nil when connected, else why not.
        case brokerChanged(problem: String?)
        case ask(DaemonQuestion)
    }

    private(set) var list: [Effect] = []

    mutating func append(_ effect: Effect) { list.append(effect) }
}

/// A question for the daemon, asked over the link while the bridge goes on; its answer (or
/// the error) comes back to the state in the actor's next turn.
enum DaemonQuestion: Sendable {
    /// Tare or zero, pressed in Home Assistant.
    case press(ScaleAction, pan: String)
    /// `?DEVICES`, for the diagnostics and the pans' capacities.
    case devices
    /// The named tares, as the link connects.
    case tares
    /// `?SESSION` show, as the link connects.
    case session
    /// A session button: start or stop.
    case sessionCommand(SessionRequest)
    /// A settings entity: a preset or named tare, an alert's value.
    case setting(Request, pan: String)
}

/// A daemon's answer to a ``DaemonQuestion``, or why there is none.
enum DaemonAnswer: Sendable {
    case command(Result<CommandReply, BridgeError>)
    case devices(Result<DevicesReport, BridgeError>)
    case report(Result<Report, BridgeError>)
}

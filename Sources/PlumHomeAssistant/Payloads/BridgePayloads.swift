internal import PlumProtocol

/// A cue event on `<base>/<pan>/cue`.
struct CuePayload: Encodable {
    var cue: String
    var grams: Double?
}

/// The daemon's answer to a button, on `<base>/<pan>/result`.
struct CommandResult: Encodable {
    var action: String
    var pan: String
    var ok: Bool
    var reason: String?
    var message: String?

    init(_ reply: CommandReply) {
        action = reply.command.lowercased()
        pan = reply.sensor
        ok = reply.ok
        reason = reply.reason
        message = reply.message
    }

    init(action: ScaleAction, pan: String, error: String) {
        self.action = action.rawValue
        self.pan = pan
        ok = false
        message = error
    }
}

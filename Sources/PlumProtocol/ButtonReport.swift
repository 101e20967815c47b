/// A press of the scale's push button and what came of it on one of its sensors (protocol 1.4):
/// `{"class":"BUTTON","sensor":"left","gesture":"short","action":"tare","ok":true,"tare":102.5,…}`.
///
/// Without it a press was seen only in the daemon's log: a client could not tell a tare the
/// button made from one it asked for, nor show why a press on a moving pan did nothing.
public struct ButtonReport: Hashable, Sendable, Decodable {
    public var sensor: String
    /// `short` or `long`.
    public var gesture: String
    /// What the press asked of the sensor: `tare` (short) or `zero` (long).
    public var action: String
    /// The tare or zero was done.
    public var ok: Bool
    /// The tare taken, when a tare was done.
    public var tare: Double?
    /// The zero offset applied, when a zero was done.
    public var offset: Double?
    /// Why not, as a stable code: the engine's refusal code (`notStable`, `outsideZeroRange`,
    /// `sensorUnavailable`, …), or `overload`/`underload`; nil when done.
    public var reason: String?
    /// The outcome in words, said once: "tare done: 102.5 g", "zero refused: load is 42.0 g, …".
    public var message: String
    /// When the outcome was known, in seconds since the epoch.
    public var time: Double

    public init(
        sensor: String, gesture: String, action: String, ok: Bool, tare: Double? = nil, offset: Double? = nil,
        reason: String? = nil, message: String, time: Double
    ) {
        self.sensor = sensor
        self.gesture = gesture
        self.action = action
        self.ok = ok
        self.tare = tare
        self.offset = offset
        self.reason = reason
        self.message = message
        self.time = time
    }
}

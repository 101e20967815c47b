/// The argument of `?COUNT` (protocol 1.5): piece counting on a sensor (docs/items.md).
///
///     ?COUNT={"sensor":"left","pieces":10};   the 10 pieces on the pan are the reference
///     ?COUNT={"sensor":"left"};               counting stops
public struct CountRequest: Hashable, Sendable, Decodable {
    public var sensor: String
    /// How many pieces are on the pan now; nil stops counting.
    public var pieces: Int?
    /// Protocol 1.8: reference optimisation; a count of at least twice the reference's
    /// pieces, unambiguous, becomes the reference (`count_reference_updated` in `WEIGHT`).
    public var optimize: Bool?

    public init(sensor: String, pieces: Int? = nil, optimize: Bool? = nil) {
        self.sensor = sensor
        self.pieces = pieces
        self.optimize = optimize
    }

    func validate() throws(ProtocolError) {
        if let pieces, !(1...1_000_000).contains(pieces) {
            throw ProtocolError(
                "?COUNT: \"pieces\" is \(pieces); use 1 to 1000000, the number of pieces on the pan (10 or more "
                    + "gives a better reference), or leave it out to stop counting")
        }
    }

    var json: JSONWriter {
        var json = JSONWriter()
        json.add("sensor", sensor)
        if let pieces { json.add("pieces", pieces) }
        if let optimize { json.add("optimize", optimize) }
        return json
    }
}

/// The reply to `?COUNT`: `{"class":"COUNT","sensor":"left","ok":true,"pieces":10,"unit":2.53,…}`.
public struct CountReply: Hashable, Sendable, Decodable {
    public var sensor: String
    public var ok: Bool
    /// The reference's number of pieces; nil when counting stopped or was refused.
    public var pieces: Int?
    /// One piece's weight in grams, from the reference.
    public var unit: Double?
    /// Set when one piece weighs under 10 d: a count may then be off by one.
    public var warning: String?
    /// The engine's refusal code when not ok, such as `notStable` or `invalidWeight`.
    public var reason: String?
    /// What happened or why not, said once.
    public var message: String

    public init(
        sensor: String, ok: Bool, pieces: Int? = nil, unit: Double? = nil, warning: String? = nil,
        reason: String? = nil, message: String
    ) {
        self.sensor = sensor
        self.ok = ok
        self.pieces = pieces
        self.unit = unit
        self.warning = warning
        self.reason = reason
        self.message = message
    }

    var object: JSONWriter {
        var json = JSONWriter()
        json.add("class", "COUNT")
        json.add("sensor", sensor)
        json.add("ok", ok)
        if let pieces { json.add("pieces", pieces) }
        if let unit { json.add("unit", unit) }
        if let warning { json.add("warning", warning) }
        if let reason { json.add("reason", reason) }
        json.add("message", message)
        return json
    }
}

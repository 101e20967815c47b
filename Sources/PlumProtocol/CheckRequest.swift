/// The argument of `?CHECK` (protocol 1.5): check-weighing on a sensor against a target with
/// tolerances below and above it (docs/items.md).
///
///     ?CHECK={"sensor":"left","target":100,"minus":2,"plus":5,"cue":true};
///     ?CHECK={"sensor":"left"};                                 check-weighing stops
public struct CheckRequest: Hashable, Sendable, Decodable {
    public var sensor: String
    /// The target in grams; nil stops check-weighing.
    public var target: Double?
    /// Grams below the target still ok (default 0).
    public var minus: Double?
    /// Grams above the target still ok (default 0).
    public var plus: Double?
    /// Pulse the `[cue]` output each time a stable reading turns ok.
    public var cue: Bool?

    public init(sensor: String, target: Double? = nil, minus: Double? = nil, plus: Double? = nil, cue: Bool? = nil) {
        self.sensor = sensor
        self.target = target
        self.minus = minus
        self.plus = plus
        self.cue = cue
    }

    func validate() throws(ProtocolError) {
        guard let target else {
            if minus != nil || plus != nil || cue != nil {
                throw ProtocolError(
                    "?CHECK: \"minus\", \"plus\" and \"cue\" go with a \"target\"; without one it stops")
            }
            return
        }
        guard target.isFinite, target > 0 else {
            throw ProtocolError("?CHECK: \"target\" is \(target); use the target weight in grams, more than 0")
        }
        for (key, value) in [("minus", minus), ("plus", plus)] {
            if let value, !(value.isFinite && value >= 0) {
                throw ProtocolError("?CHECK: \"\(key)\" is \(value); use 0 or more grams")
            }
        }
    }

    var json: JSONWriter {
        var json = JSONWriter()
        json.add("sensor", sensor)
        if let target { json.add("target", target) }
        if let minus { json.add("minus", minus) }
        if let plus { json.add("plus", plus) }
        if let cue { json.add("cue", cue) }
        return json
    }
}

/// The reply to `?CHECK`: `{"class":"CHECK","sensor":"left","ok":true,"target":100,…}`.
public struct CheckReply: Hashable, Sendable, Decodable {
    public var sensor: String
    public var ok: Bool
    /// The limits in use; nil when check-weighing stopped or was refused.
    public var target: Double?
    public var minus: Double?
    public var plus: Double?
    /// The engine's refusal code when not ok, such as `invalidWeight`.
    public var reason: String?
    /// What happened or why not, said once.
    public var message: String

    public init(
        sensor: String, ok: Bool, target: Double? = nil, minus: Double? = nil, plus: Double? = nil,
        reason: String? = nil, message: String
    ) {
        self.sensor = sensor
        self.ok = ok
        self.target = target
        self.minus = minus
        self.plus = plus
        self.reason = reason
        self.message = message
    }

    var object: JSONWriter {
        var json = JSONWriter()
        json.add("class", "CHECK")
        json.add("sensor", sensor)
        json.add("ok", ok)
        if let target { json.add("target", target) }
        if let minus { json.add("minus", minus) }
        if let plus { json.add("plus", plus) }
        if let reason { json.add("reason", reason) }
        json.add("message", message)
        return json
    }
}

import FoundationEssentials

/// The argument of `?TARE`: a sensor alone tares what is on it; with `grams` it sets that
/// preset tare, with `name` the named tare of that name (protocol 1.5).
struct TareArgument: Decodable {
    var sensor: String
    var grams: Double?
    var name: String?

    /// The request this argument makes.
    func request() throws(ProtocolError) -> Request {
        switch (grams, name) {
        case (nil, nil): return .tare(sensor: sensor)
        case (let grams?, nil):
            guard grams.isFinite else { throw ProtocolError("?TARE: \"grams\" must be a number of grams, such as 212") }
            return .presetTare(sensor: sensor, grams: grams)
        case (nil, let name?): return .useTare(sensor: sensor, name: name)
        case (_?, _?):
            throw ProtocolError(
                "?TARE: give \"grams\" (a preset tare) or \"name\" (a named tare), not both")
        }
    }
}

/// The argument of `?TARES`: the library of named tares, such as "bowl" for a 212 g bowl.
///
/// `?TARES;` lists them; `{"save":"bowl","sensor":"left"}` keeps the tare in use on `left` under
/// that name, `{"save":"bowl","grams":212}` a known weight; `{"delete":"bowl"}` forgets one.
public enum TareLibraryRequest: Hashable, Sendable, Decodable {
    case list
    /// Saves `grams`, or else the tare in use on `sensor`, as `name`.
    case save(name: String, sensor: String?, grams: Double?)
    case delete(name: String)

    /// Whether it changes the library (and so needs the peer to be authorized).
    public var changesState: Bool { self != .list }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let save = try container.decodeIfPresent(String.self, forKey: .save)
        let delete = try container.decodeIfPresent(String.self, forKey: .delete)
        let sensor = try container.decodeIfPresent(String.self, forKey: .sensor)
        let grams = try container.decodeIfPresent(Double.self, forKey: .grams)
        switch (save, delete) {
        case (let name?, nil):
            guard (sensor == nil) != (grams == nil) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .save, in: container,
                    debugDescription:
                        "\"save\" needs \"sensor\" (keep its tare) or \"grams\" (a known weight), one of them")
            }
            self = .save(name: name, sensor: sensor, grams: grams)
        case (nil, let name?):
            guard sensor == nil, grams == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .delete, in: container, debugDescription: "\"delete\" takes the name alone")
            }
            self = .delete(name: name)
        case (nil, nil):
            self = .list
        case (_?, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .save, in: container, debugDescription: "give \"save\" or \"delete\", not both")
        }
    }

    private enum CodingKeys: String, CodingKey { case save, delete, sensor, grams }
}

/// The argument of `?ALERT`: an `[[alert]]` rule's threshold and hysteresis set while the daemon
/// runs, kept in its state over a restart and a reload (protocol 1.5);
/// `{"name":"fruit-low","clear":true}` goes back to the configuration's values.
public struct AlertChange: Hashable, Sendable, Decodable {
    /// The rule's name from the configuration.
    public var name: String
    /// The new threshold in net grams; nil leaves it.
    public var threshold: Double?
    /// The new hysteresis in grams (0 or more); nil leaves it.
    public var hysteresis: Double?
    /// Forget the values set at runtime: the configuration's are used again.
    public var clear: Bool

    public init(name: String, threshold: Double? = nil, hysteresis: Double? = nil, clear: Bool = false) {
        self.name = name
        self.threshold = threshold
        self.hysteresis = hysteresis
        self.clear = clear
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        threshold = try container.decodeIfPresent(Double.self, forKey: .threshold)
        hysteresis = try container.decodeIfPresent(Double.self, forKey: .hysteresis)
        clear = try container.decodeIfPresent(Bool.self, forKey: .clear) ?? false
    }

    private enum CodingKeys: String, CodingKey { case name, threshold, hysteresis, clear }

    /// Checks the values as the configuration file's `[[alert]]` keys are checked.
    func validate() throws(ProtocolError) {
        if clear {
            guard threshold == nil, hysteresis == nil else {
                throw ProtocolError("?ALERT: \"clear\" goes alone; clear first, then set new values")
            }
            return
        }
        guard threshold != nil || hysteresis != nil else {
            throw ProtocolError(
                "?ALERT needs \"threshold\" or \"hysteresis\" (grams) or \"clear\":true, "
                    + "such as ?ALERT={\"name\":\"fruit-low\",\"threshold\":150};")
        }
        if let threshold, !threshold.isFinite {
            throw ProtocolError("?ALERT: \"threshold\" must be a number of grams, such as 150")
        }
        if let hysteresis, !(hysteresis >= 0 && hysteresis.isFinite) {
            throw ProtocolError("?ALERT: hysteresis \(hysteresis) is not allowed; use 0 or more grams, such as 20")
        }
    }
}

/// One named tare: a container's name and its weight in grams.
public struct NamedTare: Hashable, Sendable, Decodable {
    public var name: String
    public var grams: Double

    public init(name: String, grams: Double) {
        self.name = name
        self.grams = grams
    }
}

/// The answer to `?TARES`, and what every watcher of all sensors is told when the library
/// changes: `{"class":"TARES","tares":[{"name":"bowl","grams":212.0}]}`, sorted by name.
public struct TareLibraryReport: Hashable, Sendable, Decodable {
    public var tares: [NamedTare]
    /// The name just saved or deleted; nil for a listing.
    public var changed: String?

    public init(tares: [NamedTare], changed: String? = nil) {
        self.tares = tares
        self.changed = changed
    }
}

/// The argument of `?SESSION`: start, stop, show or list weighing sessions (docs/items.md).
///
///     ?SESSION={"action":"start","name":"crate-12","sensor":"left"};
///     ?SESSION={"action":"stop"};
///     ?SESSION={"action":"show","name":"crate-12"};
///     ?SESSION={"action":"list"};
public struct SessionRequest: Hashable, Sendable, Decodable {
    public enum Action: String, Hashable, Sendable, CaseIterable {
        case start, stop, show, list
    }

    public var action: Action
    /// The session: required to start; for `show`, the running or latest stopped session of
    /// that name (the running one, else the latest stopped one, when nil).
    public var name: String?
    /// For `start`: whose items the session records; the first configured sensor when nil.
    public var sensor: String?

    public init(action: Action, name: String? = nil, sensor: String? = nil) {
        self.action = action
        self.name = name
        self.sensor = sensor
    }

    private enum CodingKeys: String, CodingKey { case action, name, sensor }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let actionName = try container.decode(String.self, forKey: .action)
        guard let action = Action(rawValue: actionName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .action, in: container, debugDescription: "action must be start, stop, show or list")
        }
        self.action = action
        name = try container.decodeIfPresent(String.self, forKey: .name)
        sensor = try container.decodeIfPresent(String.self, forKey: .sensor)
    }

    /// The longest session name, in bytes of UTF-8: it goes into file names of exports and on a
    /// terminal line.
    public static let maximumNameLength = 64

    func validate() throws(ProtocolError) {
        switch action {
        case .start:
            guard let name, !name.allSatisfy(\.isWhitespace) else {
                throw ProtocolError(
                    "?SESSION: action \"start\" needs \"name\", such as "
                        + "?SESSION={\"action\":\"start\",\"name\":\"crate-12\"};")
            }
            if let problem = WireText.problem(in: name, field: "name", limit: Self.maximumNameLength) {
                throw ProtocolError("?SESSION: \(problem); use one line such as \"crate-12\"")
            }
        case .stop, .list:
            if name != nil || sensor != nil {
                throw ProtocolError(
                    "?SESSION: action \"\(action.rawValue)\" takes no \"name\" or \"sensor\"; only one session runs")
            }
        case .show:
            if sensor != nil { throw ProtocolError("?SESSION: \"sensor\" goes with action \"start\" only") }
        }
    }

    /// The argument as JSON, keys in a fixed order.
    var json: JSONWriter {
        var json = JSONWriter()
        json.add("action", action.rawValue)
        if let name { json.add("name", name) }
        if let sensor { json.add("sensor", sensor) }
        return json
    }
}

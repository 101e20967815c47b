/// An HX711 setting that cannot be used, with what was wrong and what to use instead.
///
///     hx711 ready-timeout 50 ms: is shorter than one conversion period at 10 SPS (100 ms); use at least 200 ms
public struct HX711ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The setting's name, as in the configuration file ("gain", "rate", "ready-timeout").
    public var setting: String
    /// The value as given.
    public var value: String
    /// What is wrong with it.
    public var problem: String
    /// What to do instead.
    public var hint: String

    public init(setting: String, value: String, problem: String, hint: String) {
        self.setting = setting
        self.value = value
        self.problem = problem
        self.hint = hint
    }

    public var description: String { "hx711 \(setting) \(value): \(problem); \(hint)" }
}

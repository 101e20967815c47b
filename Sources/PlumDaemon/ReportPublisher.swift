public import PlumProtocol

/// Where the station sends what every watching client should see; the transport's client hub
/// implements it. Calls never block: a slow client loses its own oldest messages.
public protocol ReportPublisher: Sendable {
    /// A `WEIGHT` report, and the same reading as a binary frame for binary watchers.
    func publishWeight(sensor: String, line: String, frame: BinaryFrame)
    /// A `RAW` report: a batch of raw samples, for watchers that asked for them.
    func publishRaw(sensor: String, line: String)
    /// Any other report about a sensor: `CUE`, `STATE`.
    func publishEvent(sensor: String, line: String)
}

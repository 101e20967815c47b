package import PlumProtocol

/// Where the station sends what every watching client should see, as typed reports; the
/// composition hands them to the transport's hub, which encodes each once for all clients.
/// Calls never block: a slow client loses its own oldest messages.
package protocol ReportPublisher: Sendable {
    /// A `WEIGHT` report, and the same reading as a binary frame for binary watchers.
    func publishWeight(_ report: WeightReport, frame: BinaryFrame)
    /// A `RAW` report: a batch of raw samples, for watchers that asked for them.
    func publishRaw(_ report: RawReport)
    /// Any other report about `sensor`: `CUE`, `STATE`.
    func publishEvent(_ report: Report, sensor: String)
}

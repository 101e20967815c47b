public import PlumProtocol

/// What plumscale-web needs of plumscaled: reports in, requests out.
///
/// The service uses ``PlumClientDaemon`` (the client library); tests use a scripted daemon.
/// Keeping the web core generic over this small protocol means the transport is one adapter.
/// A request the daemon answers with `ERROR` (an unknown sensor, a malformed step) throws
/// ``DaemonRefusal``; any other error means the daemon could not be reached.
public protocol ScaleDaemon: Sendable {
    /// Connects and watches every sensor. The stream carries every report from the daemon,
    /// starting with its WATCH answer, and ends, or throws, when the connection is lost.
    func watch() async throws -> AsyncThrowingStream<Report, any Error>

    /// `?DEVICES`: the sensors, their states and statistics.
    func devices() async throws -> [DevicesReport.Device]

    /// `?TARE`: the reply says whether the tare was taken, and why not.
    func tare(sensor: String) async throws -> CommandReply

    /// `?ZERO`.
    func zero(sensor: String) async throws -> CommandReply

    /// One `?CALIBRATE` step.
    func calibrate(_ step: CalibrationRequest) async throws -> CalibrationReply
}

/// plumscaled answered a request with `ERROR`: the request was wrong, the link is fine.
public struct DaemonRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

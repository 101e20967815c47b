import PlumProtocol

/// A connection to plumscaled's JSON socket: the blocking API, like gpsd's libgps.
///
/// One thread at a time uses a client: it sends typed ``Request``s and reads typed ``Report``s,
/// each with a deadline, so no call waits forever unless asked to. For WATCH streams in async
/// code use ``ReportStream``; for requests from async code, ``AsyncDaemonClient``.
///
/// ```swift
/// let client = try DaemonClient()                    // finds the socket, reads the greeting
/// let reply = try client.tare(sensor: "left")       // or client.request(.tare(sensor: "left"))
/// try client.watch(WatchOptions(sensors: ["left"]))
/// while let report = try client.nextReport(timeout: .seconds(2)) { … }
/// ```
public final class DaemonClient {
    /// The socket this client is connected to.
    public var socketPath: String { channel.path }
    /// The greeting the daemon sent on connect.
    public let version: VersionReport
    let channel: LineChannel

    /// Connects and reads the daemon's VERSION greeting.
    /// - Parameters:
    ///   - socketPath: the socket; nil searches as ``DaemonSocket/path(explicit:environment:userID:exists:)`` does.
    ///   - timeout: how long to wait for the greeting.
    /// - Throws: ``ClientError``: no daemon there (is plumscaled running?), permission denied
    ///   (join the socket's group, or the per-user directory is not private: see
    ///   ``DaemonSocket/checkDirectory(of:userID:privateDirectory:)``), or the peer is not plumscaled.
    public init(socketPath: String? = nil, timeout: Duration = .seconds(5)) throws(ClientError) {
        let path = DaemonSocket.path(explicit: socketPath)
        try DaemonSocket.checkDirectory(of: path)
        let channel = try LineChannel(connectingTo: path)
        let greeting: Report?
        do {
            greeting = try Self.receive(channel, deadline: Monotonic.deadline(after: timeout))?.report
        } catch  where error.code == .malformedReport {
            greeting = nil
        }
        switch greeting {
        case .version(let version)?:
            self.version = version
        case .error(let message)?:
            throw ClientError(
                .notPlumscaled, socketPath: path, "plumscaled at \(path) turned the connection away: \(message)")
        default:
            throw ClientError(
                .notPlumscaled, socketPath: path,
                "\(path) did not greet like plumscaled (no VERSION line); is it another program's socket?")
        }
        self.channel = channel
    }

    /// Sends one request.
    public func send(_ request: Request) throws(ClientError) {
        try channel.send(request.line)
    }

    /// The next report and the line it came in, or nil when `timeout` passes first (nil: no limit).
    /// - Throws: ``ClientError`` when the daemon closes the connection or sends a line that is
    ///   not a report.
    public func receive(timeout: Duration?) throws(ClientError) -> ReceivedReport? {
        try Self.receive(channel, deadline: Monotonic.deadline(after: timeout))
    }

    /// The next report, or nil when `timeout` passes first (nil: no limit).
    public func nextReport(timeout: Duration?) throws(ClientError) -> Report? {
        try receive(timeout: timeout)?.report
    }

    /// Sends `call`'s request and returns the first report its matcher accepts, skipping
    /// streamed reports meanwhile: the one generic request every named one is (``DaemonCall``).
    /// - Parameter timeout: overrides the call's own.
    /// - Throws: ``ClientError``: `.daemonError` (or `.unknownSensor`) when the daemon answers
    ///   with an ERROR report, `.timedOut` when no answer comes in time.
    public func request<Answer>(_ call: DaemonCall<Answer>, timeout: Duration? = nil) throws(ClientError) -> Answer {
        let call = call.timeout(timeout)
        try send(call.request)
        let deadline = Monotonic.seconds() + call.timeout.seconds
        while let received = try Self.receive(channel, deadline: deadline) {
            if let value = call.answer(received.report) { return value }
            if case .error(let message) = received.report { throw ClientError.fromDaemon(socketPath, message) }
        }
        throw ClientError(
            .timedOut, socketPath: socketPath,
            "plumscaled at \(socketPath) did not answer \(call.request.name) within \(Self.text(call.timeout))")
    }

    /// Whether a report is already buffered or bytes wait on the socket, so a caller can read
    /// everything that arrived before redrawing.
    public var hasPendingInput: Bool { channel.hasPendingInput }

    /// Shuts the connection down; a thread blocked reading it wakes with `.connectionLost`.
    /// The descriptor is closed when the client is released.
    public func shutDown() { channel.shutDown() }

    static func receive(_ channel: LineChannel, deadline: Double?) throws(ClientError) -> ReceivedReport? {
        guard let line = try channel.nextLine(deadline: deadline) else { return nil }
        do {
            return ReceivedReport(report: try Report.decode(line[...]), line: line)
        } catch {
            throw ClientError(.malformedReport, socketPath: channel.path, "\(channel.path): \(error)")
        }
    }

    static func text(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// A report and the JSON line it was decoded from, for a program that passes reports on as
/// the daemon wrote them (`plumscale read --json`).
public struct ReceivedReport: Hashable, Sendable {
    public var report: Report
    /// The line without its newline.
    public var line: String

    public init(report: Report, line: String) {
        self.report = report
        self.line = line
    }
}

import Dispatch
import PlumProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connection to plumscaled for async code: the requests of ``DaemonClient``, awaited.
///
/// The blocking calls run one after another on a thread of the client's own (``ClientThread``),
/// never on the concurrency pool. Cancelling a task that awaits a request shuts the connection down (the
/// request throws `.connectionLost`, as does every later one): a half-answered request would
/// leave its reply in the way of the next. To follow a WATCH, use ``ReportStream``.
public final class AsyncDaemonClient: Sendable {
    /// The socket this client is connected to.
    public let socketPath: String
    /// The greeting the daemon sent on connect.
    public let version: VersionReport
    private let queue: ClientThread
    private let box: Box
    /// The connection's descriptor, open until deinit: cancellation shuts it down by number.
    private let descriptor: Int32

    private final class Box: Sendable {
        let client: Mutex<DaemonClient>
        init(_ client: sending DaemonClient) { self.client = Mutex(client) }
    }

    /// Connects and reads the daemon's greeting, as ``DaemonClient/init(socketPath:timeout:)``.
    public init(socketPath: String? = nil, timeout: Duration = .seconds(5)) async throws(ClientError) {
        let queue = ClientThread()
        let (box, path, version, descriptor) = try await Self.run(on: queue) { () throws(ClientError) in
            let client = try DaemonClient(socketPath: socketPath, timeout: timeout)
            let facts = (client.socketPath, client.version, client.channel.descriptor)
            return (Box(client), facts.0, facts.1, facts.2)
        }
        self.queue = queue
        self.box = box
        self.socketPath = path
        self.version = version
        self.descriptor = descriptor
    }

    /// The configured sensors, their states and statistics (`?DEVICES`).
    public func devices(timeout: Duration = .seconds(5)) async throws(ClientError) -> [DevicesReport.Device] {
        try await perform { client throws(ClientError) in try client.devices(timeout: timeout) }
    }

    /// The sensors named, checked against the daemon's; every sensor when `names` is empty.
    public func sensors(
        _ names: [String], timeout: Duration = .seconds(5)
    ) async throws(ClientError) -> [DevicesReport.Device] {
        try await perform { client throws(ClientError) in try client.sensors(names, timeout: timeout) }
    }

    /// The latest reading of every sensor (`?POLL`).
    public func poll(timeout: Duration = .seconds(5)) async throws(ClientError) -> PollReport {
        try await perform { client throws(ClientError) in try client.poll(timeout: timeout) }
    }

    /// Tares `sensor`; see ``DaemonClient/tare(sensor:timeout:)``.
    public func tare(sensor: String, timeout: Duration = .seconds(10)) async throws(ClientError) -> CommandReply {
        try await perform { client throws(ClientError) in try client.tare(sensor: sensor, timeout: timeout) }
    }

    /// Sets zero on `sensor`; see ``DaemonClient/zero(sensor:timeout:)``.
    public func zero(sensor: String, timeout: Duration = .seconds(10)) async throws(ClientError) -> CommandReply {
        try await perform { client throws(ClientError) in try client.zero(sensor: sensor, timeout: timeout) }
    }

    /// One step of the known-weight calibration; see ``DaemonClient/calibrate(_:timeout:)``.
    public func calibrate(
        _ step: CalibrationRequest, timeout: Duration = .seconds(60)
    ) async throws(ClientError) -> CalibrationReply {
        try await perform { client throws(ClientError) in try client.calibrate(step, timeout: timeout) }
    }

    /// Sends `request` and returns the first report `answer` accepts; see
    /// ``DaemonClient/request(_:timeout:answer:)``.
    public func request<Answer: Sendable>(
        _ request: Request, timeout: Duration = .seconds(5), answer: @escaping @Sendable (Report) -> Answer?
    ) async throws(ClientError) -> Answer {
        try await perform { client throws(ClientError) in
            try client.request(request, timeout: timeout, answer: answer)
        }
    }

    /// Shuts the connection down; requests after it throw `.connectionLost`.
    public func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func perform<T: Sendable>(
        _ body: @escaping @Sendable (DaemonClient) throws(ClientError) -> T
    ) async throws(ClientError) -> T {
        let box = self.box
        let descriptor = self.descriptor
        let result = await withTaskCancellationHandler {
            await Self.result(on: queue) { () throws(ClientError) in
                try box.client.withLock { client throws(ClientError) in try body(client) }
            }
        } onCancel: {
            shutdown(descriptor, Int32(SHUT_RDWR))
        }
        return try result.get()
    }

    private static func run<T: Sendable>(
        on queue: ClientThread, _ body: @escaping @Sendable () throws(ClientError) -> T
    ) async throws(ClientError) -> T {
        try await result(on: queue, body).get()
    }

    private static func result<T: Sendable>(
        on queue: ClientThread, _ body: @escaping @Sendable () throws(ClientError) -> T
    ) async -> Result<T, ClientError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ClientError>, Never>) in
            queue.async {
                do throws(ClientError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }
}

import Dispatch
import PlumProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connection to plumscaled for async code: the requests of ``DaemonClient``, awaited
/// (``AsyncDaemonRequests``).
///
/// The blocking calls run one after another on a thread of the client's own (``ClientThread``),
/// never on the concurrency pool. Cancelling a task that awaits a request shuts the connection down (the
/// request throws `.connectionLost`, as does every later one): a half-answered request would
/// leave its reply in the way of the next. To follow a WATCH, use ``ReportStream``.
package final class AsyncDaemonClient: AsyncDaemonRequests {
    /// The socket this client is connected to.
    package let socketPath: String
    /// The greeting the daemon sent on connect.
    package let version: VersionReport
    private let queue: ClientThread
    private let box: Box
    /// The connection's descriptor, open until deinit: cancellation shuts it down by number.
    private let descriptor: Int32

    private final class Box: Sendable {
        let client: Mutex<DaemonClient>
        init(_ client: sending DaemonClient) { self.client = Mutex(client) }
    }

    /// Connects and reads the daemon's greeting, as ``DaemonClient/init(socketPath:timeout:)``.
    package init(socketPath: String? = nil, timeout: Duration = .seconds(5)) async throws(ClientError) {
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

    /// Sends `call` on this connection; see ``DaemonClient/request(_:timeout:)``.
    package func request<Answer: Sendable>(_ call: DaemonCall<Answer>, timeout: Duration? = nil)
        async throws(ClientError)
        -> Answer
    { try await perform { client throws(ClientError) in try client.request(call, timeout: timeout) } }

    /// The sensors named, checked against the daemon's; every sensor when `names` is empty.
    /// - Throws: ``ClientError`` `.unknownSensor` naming the sensors there are.
    package func sensors(_ names: [String], timeout: Duration? = nil) async throws(ClientError)
        -> [DevicesReport.Device]
    {
        let path = socketPath
        return try await devicesReport(timeout: timeout).sensors(names, socketPath: path)
    }

    /// Shuts the connection down; requests after it throw `.connectionLost`.
    package func shutDown() {
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

import PlumClient
public import PlumProtocol
import Synchronization

/// plumscaled through the client library: a ``ReportStream`` for the watch, and one
/// ``AsyncDaemonClient`` connection for requests, made again after it is lost.
public final class PlumClientDaemon: ScaleDaemon {
    /// The socket; nil: as the client library finds it.
    public let socketPath: String?
    private let connection = Mutex<AsyncDaemonClient?>(nil)

    public init(socketPath: String?) {
        self.socketPath = socketPath
    }

    public func watch() async throws -> AsyncThrowingStream<Report, any Error> {
        let reports = ReportStream(watching: WatchOptions(), socketPath: socketPath)
        let (stream, continuation) = AsyncThrowingStream<Report, any Error>.makeStream()
        let reader = Task {
            do {
                for try await report in reports { continuation.yield(report) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return stream
    }

    public func devices() async throws -> [DevicesReport.Device] {
        try await request { client throws(ClientError) in try await client.devices() }
    }

    public func tare(sensor: String) async throws -> CommandReply {
        try await request { client throws(ClientError) in try await client.tare(sensor: sensor) }
    }

    public func zero(sensor: String) async throws -> CommandReply {
        try await request { client throws(ClientError) in try await client.zero(sensor: sensor) }
    }

    public func calibrate(_ step: CalibrationRequest) async throws -> CalibrationReply {
        try await request { client throws(ClientError) in try await client.calibrate(step) }
    }

    /// Runs one request on the shared connection. An `ERROR` answer becomes ``DaemonRefusal``;
    /// a lost connection is dropped, so the next request connects again.
    private func request<T: Sendable>(
        _ body: (AsyncDaemonClient) async throws(ClientError) -> T
    ) async throws -> T {
        let client: AsyncDaemonClient
        if let open = connection.withLock({ $0 }) {
            client = open
        } else {
            client = try await AsyncDaemonClient(socketPath: socketPath)
            connection.withLock { $0 = client }
        }
        do {
            return try await body(client)
        } catch {
            switch error.code {
            case .daemonError, .unknownSensor:
                throw DaemonRefusal(error.message)
            default:
                connection.withLock { if $0 === client { $0 = nil } }
                client.shutDown()
                throw error
            }
        }
    }
}

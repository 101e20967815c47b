import Logging
import PlumClient
import PlumHomeAssistant
import PlumProtocol

/// The bridge's daemon side over PlumClient: `?DEVICES` for the pans, a ``ReportStream`` for the
/// reports, and one short admin connection per button press (presses are rare; a connection
/// kept open would need its own reconnecting).
///
/// When the daemon is gone it retries with back-off (1 s doubling to 10 s) and reports the loss
/// once per distinct reason, so a daemon that stays down is not logged every second.
struct PlumClientLink: ScaleDaemonLink {
    let socketPath: String?
    let logger: Logger

    init(socketPath: String?, logger: Logger) {
        self.socketPath = socketPath
        self.logger = logger
    }

    func events() -> AsyncStream<DaemonEvent> {
        let socketPath = self.socketPath
        return AsyncStream { continuation in
            let task = Task {
                var delay = 1
                var lastLoss: String?
                while !Task.isCancelled {
                    var loss: String
                    do {
                        let client = try await AsyncDaemonClient(socketPath: socketPath)
                        let pans = try await client.devices().map(\.sensor)
                        client.shutDown()
                        continuation.yield(.connected(pans: pans))
                        lastLoss = nil
                        delay = 1
                        for try await report in ReportStream(watching: WatchOptions(), socketPath: socketPath) {
                            continuation.yield(.report(report))
                        }
                        loss = "plumscaled closed the connection"
                    } catch {
                        loss = "\(error)"
                    }
                    if Task.isCancelled { break }
                    if loss != lastLoss {
                        lastLoss = loss
                        continuation.yield(.disconnected(reason: loss))
                    }
                    try? await Task.sleep(for: .seconds(delay))
                    delay = min(delay * 2, 10)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        let client = try await AsyncDaemonClient(socketPath: socketPath)
        defer { client.shutDown() }
        switch action {
        case .tare: return try await client.tare(sensor: pan)
        case .zero: return try await client.zero(sensor: pan)
        }
    }
}

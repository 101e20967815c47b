import Logging
import PlumClient
import PlumHomeAssistant
import PlumProtocol

/// The bridge's daemon side over PlumClient: `?DEVICES` for the pans, a ``ReportStream`` for the
/// reports, and one connection for every button press, opened at the first and again after the
/// daemon dropped it. (A connection per press let a flood of presses open as many sockets.)
///
/// When the daemon is gone it retries with back-off (1 s doubling to 10 s) and reports the loss
/// once per distinct reason, so a daemon that stays down is not logged every second.
struct PlumClientLink: ScaleDaemonLink {
    let socketPath: String?
    let logger: Logger
    private let commands: CommandConnection

    init(socketPath: String?, logger: Logger) {
        self.socketPath = socketPath
        self.logger = logger
        commands = CommandConnection(socketPath: socketPath)
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

    /// Sends the press over the shared connection. A connection the daemon closed (it restarted
    /// since the last press) is opened again and the press sent once more: tare and zero set
    /// the same offset twice, so a press that did reach the daemon comes to no harm.
    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        do {
            return try await commands.perform(action, pan: pan)
        } catch let error as ClientError where error.code == .connectionLost {
            return try await commands.perform(action, pan: pan)
        }
    }

    /// `?DEVICES` over the same connection, opened again once as a press is.
    func devices() async throws -> DevicesReport {
        do {
            return try await commands.devices()
        } catch let error as ClientError where error.code == .connectionLost {
            return try await commands.devices()
        }
    }
}

/// The one connection the bridge's presses share; the client runs its requests one after
/// another, so the pans' presses need no lock of their own.
actor CommandConnection {
    let socketPath: String?
    private var client: AsyncDaemonClient?

    init(socketPath: String?) { self.socketPath = socketPath }

    func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        let client = try await connected()
        do {
            switch action {
            case .tare: return try await client.tare(sensor: pan)
            case .zero: return try await client.zero(sensor: pan)
            }
        } catch {
            // A request that failed leaves the connection in an unknown state: the next opens anew.
            if self.client === client { self.client = nil }
            client.shutDown()
            throw error
        }
    }

    func devices() async throws -> DevicesReport {
        let client = try await connected()
        do {
            return try await client.request(.devices) { report in
                if case .devices(let devices) = report { devices } else { nil }
            }
        } catch {
            if self.client === client { self.client = nil }
            client.shutDown()
            throw error
        }
    }

    private func connected() async throws -> AsyncDaemonClient {
        if let client { return client }
        let opened = try await AsyncDaemonClient(socketPath: socketPath)
        // Another press may have connected while this one waited; keep one.
        if let client {
            opened.shutDown()
            return client
        }
        client = opened
        return opened
    }
}

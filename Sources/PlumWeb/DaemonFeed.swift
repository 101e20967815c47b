import Logging
import PlumProtocol
public import ServiceLifecycle

/// The link to plumscaled: watches every sensor, hands each report to the board and the
/// history, asks for the device list every few seconds (for metrics), and reconnects with a
/// growing pause when the daemon restarts or is not running yet.
public struct DaemonFeed<Daemon: ScaleDaemon>: Service {
    let daemon: Daemon
    let board: PanBoard
    let history: HistoryKeeper?
    let logger: Logger
    /// How often DEVICES is asked for while connected.
    let devicesInterval: Duration

    public init(
        daemon: Daemon, board: PanBoard, history: HistoryKeeper?, logger: Logger,
        devicesInterval: Duration = .seconds(5)
    ) {
        self.daemon = daemon
        self.board = board
        self.history = history
        self.logger = logger
        self.devicesInterval = devicesInterval
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.connectForever() }
        await history?.flush()
    }

    private func connectForever() async {
        let firstPause = Duration.milliseconds(250)
        var pause = firstPause
        while !Task.isCancelled {
            var reached = false
            let reason: String
            do {
                try await session { reached = true }
                reason = "plumscaled closed the connection"
            } catch is CancellationError {
                return
            } catch {
                reason = "\(error)"
            }
            if Task.isCancelled { return }
            // A connection that was made starts the back-off again: the daemon restarted.
            if reached { pause = firstPause }
            logger.warning("lost plumscaled: \(reason); retrying in \(pause)")
            await board.linkChanged(connected: false, message: "not connected to plumscaled: \(reason); retrying")
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }

    /// One connection, until it ends. The first report (the daemon's WATCH answer) proves the
    /// connection: a client library that connects lazily fails before it, not after.
    private func session(connected: () -> Void) async throws {
        let reports = try await daemon.watch()
        var iterator = reports.makeAsyncIterator()
        guard let first = try await iterator.next() else { return }
        connected()
        logger.info("connected to plumscaled")
        await board.linkChanged(connected: true, message: nil)
        await take(first)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var rest = reports.makeAsyncIterator()
                while let report = try await rest.next() { await take(report) }
            }
            group.addTask {
                while true {
                    await board.update(devices: try await daemon.devices())
                    try await Task.sleep(for: devicesInterval)
                }
            }
            // Whichever ends first (the watch closed, a request failed) ends the connection.
            try await group.next()
            group.cancelAll()
        }
    }

    private func take(_ report: Report) async {
        await board.apply(report)
        if case .weight(let weight) = report { await history?.record(weight) }
    }
}

package import Logging
package import PlumClient
internal import PlumProtocol
internal import ServiceLifecycle

/// The web's side of the ``DaemonLink``: runs the link (which watches every sensor and
/// reconnects by itself, as PlumClient's back-off says), hands each report to the board and the
/// history, tells the page when the daemon comes and goes, and asks for the device list (for
/// the metrics) on each connect and every few seconds while connected.
package struct DaemonFeed: Service {
    let link: DaemonLink
    let board: PanBoard
    let history: HistoryKeeper?
    let logger: Logger
    /// How often DEVICES is asked for while connected.
    let devicesInterval: Duration

    package init(
        link: DaemonLink, board: PanBoard, history: HistoryKeeper?, logger: Logger,
        devicesInterval: Duration = .seconds(5)
    ) {
        self.link = link
        self.board = board
        self.history = history
        self.logger = logger
        self.devicesInterval = devicesInterval
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await self.follow() }
        await history?.flush()
    }

    /// Until cancelled: the link's events in order, and the device list beside them.
    private func follow() async {
        let events = link.events()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await link.run() }
            group.addTask { await refreshDevices() }
            var lastLoss: String?
            // Ends when the link stops (this task was cancelled).
            for await event in events {
                switch event {
                case .state(.connecting):
                    break
                case .state(.connected(let version)):
                    lastLoss = nil
                    logger.info("connected to plumscaled \(version.release)")
                    await board.linkChanged(connected: true, message: nil)
                    group.addTask { await updateDevices() }
                case .state(.disconnected(let reason)):
                    guard !Task.isCancelled else { break }
                    // A daemon that stays down is logged once per reason, not at every retry.
                    if reason != lastLoss { logger.warning("lost plumscaled: \(reason); retrying") }
                    lastLoss = reason
                    await board.linkChanged(
                        connected: false, message: "not connected to plumscaled: \(reason); retrying")
                case .report(let report):
                    await take(report)
                }
            }
            group.cancelAll()
        }
    }

    /// Asks for the device list every ``devicesInterval`` while the link is connected.
    private func refreshDevices() async {
        while !Task.isCancelled {
            if case .connected = link.state { await updateDevices() }
            try? await Task.sleep(for: devicesInterval)
        }
    }

    private func updateDevices() async {
        do {
            await board.update(devices: try await link.devices())
        } catch {
            // The link notices a daemon that went away and says so; a failed poll only waits.
            logger.debug("asking plumscaled for its devices: \(error)")
        }
    }

    private func take(_ report: Report) async {
        await board.apply(report)
        switch report {
        case .weight(let weight): await history?.record(weight)
        case .item(let item): await history?.record(item)
        case .session(let session): await history?.record(session)
        default: break
        }
    }
}

import Logging
import PlumClient
import PlumHomeAssistant
import PlumProtocol

/// The bridge's daemon side over PlumClient's ``DaemonLink``: the link watches and reconnects
/// (with PlumClient's back-off), and this turns its events into the bridge's ``DaemonEvent``s:
/// on each connect `?DEVICES` names the pans before any report of that connection is passed on,
/// and a loss is reported once per distinct reason, so a daemon that stays down is not logged
/// at every retry. Presses and `?DEVICES` go over the link's one requests' connection (a
/// connection per press let a flood of presses open as many sockets).
package struct PlumClientLink: ScaleDaemonLink {
    let link: DaemonLink
    let logger: Logger

    package init(socketPath: String?, logger: Logger, version: String? = nil) {
        // Announced to the daemon on every connect, so `plumscale status` lists the bridge.
        let announcer = ServiceAnnouncer(
            name: "plumscale-mqtt", version: version, detail: ["broker": .text("starting")])
        link = DaemonLink(socketPath: socketPath, announcing: announcer)
        self.logger = logger
    }

    /// The broker's state as the daemon lists it: `"broker":"connected"`, or `"disconnected"`
    /// with the problem (cut to the announcement's bound).
    package func brokerChanged(problem: String?) {
        var detail: [String: ServiceAnnouncer.DetailValue] = [
            "broker": .text(problem == nil ? "connected" : "disconnected")
        ]
        if let problem { detail["broker_error"] = .text(String(problem.prefix(ClientAnnouncement.maximumText))) }
        link.announce(detail: detail)
    }

    package func events() -> AsyncStream<DaemonEvent> {
        let link = self.link
        return AsyncStream { continuation in
            // Subscribed before the link runs, so its first connect is seen.
            let events = link.events()
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await link.run() }
                    var lastLoss: String?
                    func lost(_ reason: String) {
                        guard !Task.isCancelled, reason != lastLoss else { return }
                        lastLoss = reason
                        continuation.yield(.disconnected(reason: reason))
                    }
                    for await event in events {
                        switch event {
                        case .state(.connecting):
                            break
                        case .state(.connected):
                            // The reports that come meanwhile wait in `events`, so they follow.
                            do {
                                let pans = try await link.devices().map(\.sensor)
                                lastLoss = nil
                                continuation.yield(.connected(pans: pans))
                            } catch {
                                lost("\(error)")
                            }
                        case .state(.disconnected(let reason)):
                            lost(reason)
                        case .report(let report):
                            continuation.yield(.report(report))
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Sends the press over the link's requests' connection; one the daemon closed (it
    /// restarted since the last press) is opened again and the press sent once more: tare and
    /// zero set the same offset twice, so a press that did reach the daemon comes to no harm.
    package func perform(_ action: ScaleAction, pan: String) async throws -> CommandReply {
        switch action {
        case .tare: try await link.tare(sensor: pan)
        case .zero: try await link.zero(sensor: pan)
        }
    }

    /// A settings request over the same connection; the daemon's answer, its `ERROR` included.
    package func settings(_ request: Request) async throws -> Report {
        let answer: Result<Report, ClientError>
        do {
            answer = .success(try await link.request(DaemonCall(request) { $0 }))
        } catch {
            answer = .failure(error)
        }
        switch answer {
        case .success(let report): return report
        case .failure(let error) where error.code == .daemonError || error.code == .unknownSensor:
            return .error(message: error.message)
        case .failure(let error): throw error
        }
    }

    /// `?DEVICES` over the same connection.
    package func devices() async throws -> DevicesReport {
        try await link.devicesReport()
    }
}

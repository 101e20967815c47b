package import Logging
package import PlumClient
internal import PlumHardware
internal import PlumProtocol
internal import Synchronization

/// plumscale-display's loop: follows the daemon through a ``DaemonLink``, keeps the
/// ``DisplayBoard``, and redraws the panel when what it shows changes.
///
/// - **Latency.** A report that changes the picture is drawn at once, unless the last refresh
///   was less than ``minimumInterval`` ago; then at that interval's end, with every report that
///   arrived meanwhile. At 80 readings a second a panel sees at most 20 refreshes, each the
///   latest picture, and a change is on the glass within 50 ms plus the refresh itself.
/// - **Rest.** A picture equal to the last one is not drawn at all; the driver then sends only
///   the columns or cells that changed. Once a second the service looks again, for the pans that
///   alternate and for a pan whose reports stopped (shown "stale", never as a current weight).
/// - **Failures.** A panel that fails is logged once per different error and started again
///   with back-off (it may have lost power or been unplugged); the link goes on meanwhile.
/// - **Stop.** When cancelled it draws "stopped", so no old number stays on the panel.
///
/// The panel is driven from one task at a time: the drawing task, which owns it. I2C writes
/// block for a few milliseconds; that task is the only work of the process.
package final class DisplayService: Sendable {
    package static let minimumInterval = Duration.milliseconds(50)

    let link: DaemonLink
    let alternate: Duration
    let logger: Logger
    let state: Mutex<Shared>
    /// Wakes the drawing task; holds at most one wake-up, as many reports make one redraw.
    let wakeups: AsyncStream<Void>
    let wake: AsyncStream<Void>.Continuation
    let started = ContinuousClock.now

    struct Shared {
        var board: DisplayBoard
        var statistics = DisplayStatistics()
        /// When the oldest report not yet drawn arrived; nil when all are drawn.
        var pendingSince: ContinuousClock.Instant?
    }

    package init(link: DaemonLink, board: DisplayBoard, alternate: Duration, logger: Logger) {
        self.link = link
        self.alternate = alternate
        self.logger = logger
        state = Mutex(Shared(board: board))
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The link a display needs: every sensor, changes only (protocol 1.9), so a pan at rest
    /// costs a report a second, not every reading; the heartbeat keeps a stuck daemon visible.
    package static func link(socketPath: String?, announcing announcer: ServiceAnnouncer? = nil) -> DaemonLink {
        DaemonLink(socketPath: socketPath, watching: WatchOptions(changes: true), announcing: announcer)
    }

    /// Refreshes drawn so far, the bytes they cost and how long reports waited for them.
    package var statistics: DisplayStatistics { state.withLock { $0.statistics } }

    /// Runs until the task is cancelled; then draws "stopped" and returns.
    package func run<Panel: DisplayPanel>(panel: inout Panel) async {
        let events = link.events()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.link.run() }
            group.addTask { await self.follow(events) }
            group.addTask { await self.tick() }
            await draw(on: &panel)
            group.cancelAll()
        }
        let stopped = DisplayPicture(body: .message(title: "plumscale-display", lines: ["stopped"]))
        _ = try? panel.show(stopped, phase: 0)
    }

    /// Seconds since the service started: the board's clock.
    func now() -> Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private func follow(_ events: AsyncStream<DaemonLink.Event>) async {
        var lastLoss: String?
        for await event in events {
            switch event {
            case .state(.connecting):
                state.withLock { $0.board.linkChanged(.connecting) }
            case .state(.connected(let version)):
                lastLoss = nil
                logger.info("connected to plumscaled \(version.release)")
                state.withLock { $0.board.linkChanged(.connected) }
                await askForOrderAndSession()
            case .state(.disconnected(let reason)):
                guard !Task.isCancelled else { break }
                if reason != lastLoss { logger.warning("lost plumscaled: \(reason); retrying") }
                lastLoss = reason
                state.withLock { $0.board.linkChanged(.away(reason: reason)) }
            case .report(let report):
                let now = now()
                let arrived = ContinuousClock.now
                state.withLock {
                    $0.board.apply(report, now: now)
                    if $0.pendingSince == nil { $0.pendingSince = arrived }
                }
            }
            wake.yield()
        }
    }

    /// The daemon's order of the pans, and a session that runs since before this connection
    /// (only a session's start and items are pushed to watchers).
    private func askForOrderAndSession() async {
        if let devices = try? await link.request(.devices) {
            state.withLock { $0.board.setSensorOrder(devices.devices.sorted { $0.index < $1.index }.map(\.sensor)) }
        }
        guard let reply = try? await link.request(.session(SessionRequest(action: .show))) else { return }
        let now = now()
        state.withLock { $0.board.apply(.session(reply), now: now) }
        wake.yield()
    }

    private func tick() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            wake.yield()
        }
    }

    private func draw<Panel: DisplayPanel>(on panel: inout Panel) async {
        var shown: (DisplayPicture, Int)?
        var lastRefresh = ContinuousClock.now - Self.minimumInterval
        var needsStart = true
        var lastError: String?
        var backOff = BackOffSchedule()
        for await _ in wakeups {
            if Task.isCancelled { break }
            let wait = lastRefresh + Self.minimumInterval - ContinuousClock.now
            if wait > .zero { try? await Task.sleep(for: wait) }
            if Task.isCancelled { break }
            let now = now()
            let picture = state.withLock { $0.board.picture(now: now) }
            let phase = Int(now / Double(alternate.components.seconds).clamped(minimum: 1))
            if !needsStart, let shown, shown.0 == picture, shown.1 == phase {
                state.withLock { $0.pendingSince = nil }
                continue
            }
            do throws(HardwareError) {
                if needsStart {
                    guard backOff.due(at: now) else { continue }
                    try panel.start()
                    needsStart = false
                    if lastError != nil { logger.info("the display \(panel.description) works again") }
                    lastError = nil
                    backOff.reset()
                }
                let bytes = try panel.show(picture, phase: phase)
                shown = (picture, phase)
                let drawn = ContinuousClock.now
                lastRefresh = drawn
                state.withLock {
                    $0.statistics.refreshed(bytes: bytes, waited: $0.pendingSince.map { drawn - $0 })
                    $0.pendingSince = nil
                }
            } catch {
                let message = error.description
                if message != lastError { logger.error("\(message)") }
                lastError = message
                needsStart = true
                shown = nil
                backOff.failed(at: now)
            }
        }
    }
}

/// What the service has drawn: refreshes, bytes, and how long a report that changed the
/// picture waited until the panel showed it (from its arrival to the end of the refresh).
package struct DisplayStatistics: Sendable {
    package private(set) var refreshes = 0
    package private(set) var bytes = 0
    /// Each refresh's wait, in seconds, for the refreshes a report caused.
    package private(set) var waits: [Double] = []

    mutating func refreshed(bytes: Int, waited: Duration?) {
        refreshes += 1
        self.bytes += bytes
        if let waited, waits.count < 100_000 {
            waits.append(Double(waited.components.seconds) + Double(waited.components.attoseconds) * 1e-18)
        }
    }

    /// The wait below which `fraction` of the waits lie, in milliseconds; nil with none.
    package func waitMilliseconds(_ fraction: Double) -> Double? {
        guard !waits.isEmpty else { return nil }
        let sorted = waits.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index] * 1000
    }

    /// "812 refreshes, 41230 bytes (51 a refresh), report to panel 3.1 ms median, 48.7 ms at most".
    package var summary: String {
        var text = "\(refreshes) refreshes, \(bytes) bytes"
        if refreshes > 0 { text += " (\(bytes / refreshes) a refresh)" }
        if let median = waitMilliseconds(0.5), let worst = waitMilliseconds(1) {
            text += ", report to panel \(Self.format(median)) ms median, \(Self.format(worst)) ms at most"
        }
        return text
    }

    static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// When to try a failed panel again: 1 s, doubling to a minute.
struct BackOffSchedule {
    var next = 0.0
    var delay = 1.0

    func due(at now: Double) -> Bool { now >= next }

    mutating func failed(at now: Double) {
        next = now + delay
        delay = min(60, delay * 2)
    }

    mutating func reset() {
        next = 0
        delay = 1
    }
}

extension Double {
    fileprivate func clamped(minimum: Double) -> Double { Swift.max(self, minimum) }
}

package import PlumProtocol

/// The latest state of every pan as plumscale-web knows it, and the fan-out of frames to the
/// browsers watching.
///
/// Each browser gets its own bounded buffer that keeps the newest frames: a slow phone loses
/// old readings, never slows the others or the link to the daemon.
package actor PanBoard {
    /// Frames buffered per browser before the oldest are dropped.
    package static let browserBuffer = 64
    /// Item events kept for a browser that arrives later: its list does not start empty.
    package static let recentItems = 50

    private var order: [String] = []
    private var latest: [String: WeightReport] = [:]
    private var states: [String: StateReport] = [:]
    private var items: [ItemReport] = []
    private var devices: [DevicesReport.Device] = []
    private var connected = false
    private var linkMessage: String? = "connecting to plumscaled"
    private var watchers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextWatcher = 0
    private let metrics: WebMetrics?

    package init(metrics: WebMetrics? = nil) {
        self.metrics = metrics
    }

    /// Takes one report from the daemon and passes what the page shows on to every browser.
    package func apply(_ report: Report) {
        switch report {
        case .weight(let weight):
            if latest[weight.sensor] == nil, !order.contains(weight.sensor) { order.append(weight.sensor) }
            metrics?.record(weight, previous: latest[weight.sensor])
            latest[weight.sensor] = weight
            broadcast(BrowserFrame.weight(weight))
        case .cue(let cue):
            broadcast(BrowserFrame.cue(cue))
        case .state(let state):
            states[state.sensor] = state
            broadcast(BrowserFrame.state(state))
        case .devices(let report):
            update(devices: report.devices)
        case .poll(let poll):
            for weight in poll.weights where latest[weight.sensor] == nil { apply(.weight(weight)) }
        case .tares(let library):
            broadcast(BrowserFrame.tares(library))
        case .item(let item):
            items.append(item)
            if items.count > Self.recentItems { items.removeFirst(items.count - Self.recentItems) }
            broadcast(BrowserFrame.item(item))
        case .session(let session):
            // Only the news sent to watchers; replies to requests never reach the board.
            broadcast(BrowserFrame.session(session))
        // A piece count and a check verdict travel in each WEIGHT; the replies that set them are
        // the requester's.
        case .version, .watch, .raw, .command, .calibrate, .alert, .button, .overflow, .error, .unknown,
            .count, .check, .client:
            break
        }
    }

    /// Records the daemon's device list: the pans' order, and the state and rates for metrics.
    package func update(devices list: [DevicesReport.Device]) {
        devices = list
        order = list.sorted { $0.index < $1.index }.map(\.sensor)
        metrics?.record(list)
    }

    /// The link to plumscaled came up or went down; the page shows it.
    package func linkChanged(connected: Bool, message: String?) {
        self.connected = connected
        linkMessage = message
        metrics?.daemonUp(connected)
        broadcast(BrowserFrame.status(connected: connected, message: message))
    }

    /// A new browser: the frames that draw the page as it is now, then every later frame.
    package func subscribe() -> (snapshot: [String], frames: AsyncStream<String>, id: Int) {
        let (stream, continuation) = AsyncStream<String>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.browserBuffer))
        nextWatcher += 1
        watchers[nextWatcher] = continuation
        metrics?.browsers(watchers.count)
        var snapshot = [BrowserFrame.status(connected: connected, message: linkMessage)]
        snapshot += sensors.compactMap { latest[$0].map(BrowserFrame.weight) }
        snapshot += sensors.compactMap { states[$0].map(BrowserFrame.state) }
        snapshot += items.map(BrowserFrame.item)
        return (snapshot, stream, nextWatcher)
    }

    package func unsubscribe(_ id: Int) {
        watchers.removeValue(forKey: id)?.finish()
        metrics?.browsers(watchers.count)
    }

    /// How many browsers are watching.
    package var watcherCount: Int { watchers.count }

    /// The pans in the daemon's order (then in the order first seen).
    package var sensors: [String] { order + latest.keys.filter { !order.contains($0) }.sorted() }

    /// `/api/poll`: every pan's latest reading and whether the service is connected.
    package func pollJSON(now: Double) -> String {
        var json = JSONWriter()
        json.add("time", now)
        json.add("connected", connected)
        let weights = sensors.compactMap { latest[$0].map { BrowserFrame.weightObject($0, type: false) } }
        json.add("weights", objects: weights)
        return json.finished
    }

    /// `/api/devices`: the daemon's sensors, as of its last `DEVICES` answer.
    package func devicesJSON() -> String {
        var json = JSONWriter()
        json.add("connected", connected)
        json.add("devices", objects: devices.map(BrowserFrame.device))
        return json.finished
    }

    /// The latest reading of `sensor`, if any.
    package func reading(_ sensor: String) -> WeightReport? { latest[sensor] }

    private func broadcast(_ frame: String) {
        for continuation in watchers.values { continuation.yield(frame) }
    }
}

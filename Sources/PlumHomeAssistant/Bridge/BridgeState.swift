import FoundationEssentials
internal import Logging
internal import PlumMQTT
internal import PlumProtocol

/// Everything the bridge knows and decides, as a value: the pans, their publishing policies,
/// the alerts, the named tares, the session, the diagnostics, the discovery's clean-up, and
/// whether the broker and the daemon are there. Given an event of the broker or the daemon, a
/// tick or a daemon's answer, it changes itself and returns what to carry out
/// (``BridgeEffects``: messages, subscriptions, log lines, questions for the daemon), which
/// ``Bridge``, the actor, does in order. What to publish is decided by ``PublishingPolicy`` and
/// ``HomeAssistantDiscovery``, pure values too.
struct BridgeState {
    let settings: BridgeSettings
    let discovery: HomeAssistantDiscovery
    /// The broker, for messages: `host:port`.
    let broker: String
    /// Seconds since the bridge started, as the actor last said (``BridgeState/at(_:)``).
    private(set) var now: Double = 0
    /// What was decided and not yet carried out (``takeEffects()``).
    private var effects = BridgeEffects()
    var brokerUp = false
    /// The last broker problem logged, so a retry that fails the same way is not logged again.
    var brokerProblem: String?
    var daemonUp = false
    var daemonProblem: String?
    var pans: [String] = []
    var policies: [String: PublishingPolicy] = [:]
    var heaviestFlags: [String: Bool] = [:]
    /// Whether each pan's sensor delivers, as last published on its availability topic.
    var panAvailable: [String: Bool] = [:]
    var publishedHeaviest: String?
    var cleanup = DiscoveryCleanup()
    /// The components Home Assistant may have from this scale, platform by object id: those the
    /// bridge published and those of a retained device config it found; one that is no longer
    /// there is removed by the next device config.
    var knownComponents: [String: String] = [:]
    /// Components of alerts the daemon said it no longer has, removed even before its other
    /// alerts are all known.
    var alertsGone: Set<String> = []
    /// The device config last published, so an unchanged one is not sent again unasked.
    var publishedDeviceConfig: DeviceDiscoveryPayload?
    /// The daemon's alerts, by name, as last reported (each watcher gets them all at once).
    var alerts: [String: AlertReport] = [:]
    /// The alerts the daemon has reported since the link (re)connected; complete at the first
    /// WEIGHT, since the daemon sends every rule's state right after the WATCH acknowledgement.
    var alertsSinceConnect: Set<String>?
    /// What the bridge has yet to read since the link connected before it sends the device config
    /// (``publishDeviceConfig(force:)``): "devices" (the pans' capacities), "tares" and "sessions".
    var settingsSinceConnect: Set<String> = []
    /// Pans with a button being carried out, and the presses that arrived meanwhile, each action
    /// once: a flood of presses costs one daemon request per pan at a time, not a task each.
    var commandsInFlight: Set<String> = []
    var queuedCommands: [String: [ScaleAction]] = [:]
    /// The pans' diagnostics, and when `?DEVICES` was last asked for them (one at a time).
    var diagnostics = DiagnosticsKeeper()
    var loggedStates: [String: String] = [:]  // each pan's state as last logged (``logState(_:)``)
    var devicesAskedAt: Double?
    var devicesInFlight = false
    /// The daemon's named tares (`TARES`), each pan's capacity (`?DEVICES`) and each pan's tare
    /// as last published: the settings entities (``settingCommand(_:)``).
    var tareLibrary: [NamedTare] = []
    var capacities: [String: Double] = [:]
    var publishedTares: [String: Double] = [:]
    /// Whether the daemon answers `?SESSION` (protocol 1.5), and its session's state (``Bridge+Sessions``).
    var sessionsSupported = false
    var session: SessionStatePayload?

    init(settings: BridgeSettings, broker: String) {
        self.settings = settings
        self.broker = broker
        discovery = HomeAssistantDiscovery(
            topics: settings.topics, division: settings.policy.division, qos: settings.qos.rawValue,
            version: settings.version, device: settings.device, supportURL: settings.supportURL)
    }

    /// What was decided since the last call, to carry out now.
    mutating func takeEffects() -> BridgeEffects {
        defer { effects = BridgeEffects() }
        return effects
    }

    /// The time of the turn about to be taken, in seconds since the bridge started.
    mutating func at(_ seconds: Double) { now = seconds }

    mutating func log(_ level: Logger.Level, _ message: String) { effects.append(.log(level, message)) }
    mutating func ask(_ question: DaemonQuestion) { effects.append(.ask(question)) }

    // MARK: broker side

    mutating func handle(_ event: MQTTEvent) {
        let topics = settings.topics
        switch event {
        case .connected:
            brokerUp = true
            brokerProblem = nil
            effects.append(.brokerChanged(problem: nil))
            log(.info, "connected to MQTT broker \(broker)")
            let filters = [
                topics.commandFilter, topics.homeAssistantStatus, topics.discoveryFilter, topics.deviceDiscovery,
                topics.sync, topics.alertSettingFilter
            ]
            for filter in filters { effects.append(.subscribe(filter)) }
            let marker = "sync \(UInt64.random(in: 1...UInt64.max))"
            cleanup.begin(marker: marker)
            send(topics.sync, text: marker, retain: false)
            if daemonUp { publishAll() }
        case .connectionRefused(let reason), .unreachable(let reason):
            brokerDown("MQTT broker \(broker) refused or unreachable: \(reason); retrying with back-off")
        case .disconnected(let reason):
            brokerDown("lost the MQTT broker \(broker): \(reason ?? "disconnected"); reconnecting with back-off")
        case .message(let message):
            received(message)
        case .subscribed, .published:
            break
        }
    }

    private mutating func brokerDown(_ problem: String) {
        brokerUp = false
        guard brokerProblem != problem else { return }
        brokerProblem = problem
        effects.append(.brokerChanged(problem: problem))
        log(.warning, problem)
    }

    private mutating func received(_ message: MQTTMessage) {
        let topics = settings.topics
        if settingCommand(message) || sessionCommand(message) { return }
        if let (level, action) = topics.parseCommand(message.topic) {
            // A button press is an event, never state. A retained one (someone published with
            // the retain flag) would come back at every reconnect and tare or zero again, and the
            // empty message that clears it is no press either: only a live "PRESS" counts.
            guard !message.retain else {
                log(
                    .warning,
                    """
                    \(message.topic): ignoring a retained command; clear it with an empty retained message, \
                    and publish presses without the retain flag
                    """)
                return
            }
            guard message.payload == Array("PRESS".utf8) else {
                let shown =
                    message.payload.isEmpty ? "an empty payload" : "payload \(message.text.prefix(40).debugDescription)"
                log(.warning, "\(message.topic): ignoring \(shown); a button press is PRESS")
                return
            }
            guard let pan = pans.first(where: { ScaleIdentity.level($0) == level }) else {
                log(.warning, "\(message.topic): no pan \(level) on this scale; pans: \(pans.joined(separator: ", "))")
                return
            }
            command(action, pan: pan)
        } else if message.topic == topics.sync {
            if cleanup.marker(message.text) {
                effects.append(.unsubscribe(topics.discoveryFilter))
                effects.append(.unsubscribe(topics.deviceDiscovery))
                effects.append(.unsubscribe(topics.sync))
                publishDeviceConfig(force: true)
            }
        } else if message.topic == topics.deviceDiscovery {
            if message.retain {
                cleanup.found(components: HomeAssistantDiscovery.componentPlatforms(ofDeviceConfig: message.payload))
            }
        } else if message.topic == topics.homeAssistantStatus {
            if message.text == "online" && daemonUp {
                log(.info, "Home Assistant came online; publishing discovery again")
                publishAll()
            }
        } else if message.retain {
            cleanup.found(legacy: message.topic, payloadEmpty: message.payload.isEmpty)
        }
    }

    private mutating func command(_ action: ScaleAction, pan: String) {
        guard !commandsInFlight.contains(pan) else {
            if !queuedCommands[pan, default: []].contains(action) {
                queuedCommands[pan, default: []].append(action)
                log(.info, "Home Assistant pressed \(action.rawValue) on \(pan); after the command in progress")
            }
            return
        }
        commandsInFlight.insert(pan)
        log(.info, "Home Assistant pressed \(action.rawValue) on \(pan)")
        ask(.press(action, pan: pan))
    }

    /// The daemon answered a press on `pan` (or could not): the result on its topic, the event
    /// and last action on its entities; then the next press queued for it meanwhile, one at a time.
    mutating func pressed(_ action: ScaleAction, pan: String, _ answer: Result<CommandReply, BridgeError>) {
        let text: String
        switch answer {
        case .success(let reply):
            text = Self.json(CommandResult(reply))
            let event = PanEvent(reply, action: action)
            if !reply.ok { log(.warning, "\(pan): \(event.message)") }
            announce(event, pan: pan)
        case .failure(let error):
            text = Self.json(CommandResult(action: action, pan: pan, error: "\(error)"))
            log(.warning, "\(action.rawValue) \(pan) failed: \(error)")
            announce(PanEvent(action: action, error: "\(error)"), pan: pan)
        }
        send(settings.topics.result(pan), text: text, retain: false)
        if let next = queuedCommands[pan]?.isEmpty == false ? queuedCommands[pan]?.removeFirst() : nil {
            log(.info, "Home Assistant pressed \(next.rawValue) on \(pan)")
            ask(.press(next, pan: pan))
        } else {
            queuedCommands[pan] = nil
            commandsInFlight.remove(pan)
        }
    }

    /// The answer to a press where Home Assistant's entities read it: an event on the pan's
    /// event entity (not retained: an event happens once) and the text of its last action sensor.
    mutating func announce(_ event: PanEvent, pan: String) {
        send(settings.topics.event(pan), text: Self.json(event), retain: false)
        send(settings.topics.lastAction(pan), text: event.lastAction, retain: settings.retain)
    }

    // MARK: daemon side

    mutating func handle(_ event: DaemonEvent) {
        switch event {
        case .connected(let newPans):
            daemonUp = true
            daemonProblem = nil
            log(.info, "watching plumscaled: \(newPans.count) pans (\(newPans.joined(separator: ", ")))")
            // Pans that left are removed from Home Assistant by the next device config.
            pans = newPans
            alertsSinceConnect = []
            settingsSinceConnect = ["devices", "tares", "sessions"]
            for pan in newPans where policies[pan] == nil { policies[pan] = PublishingPolicy(settings.policy) }
            if brokerUp { publishAll() }
            askDevices()
            askTares()
            askSession()
        case .disconnected(let reason):
            daemonUp = false
            if daemonProblem != reason {
                daemonProblem = reason
                log(.warning, "lost plumscaled: \(reason); reconnecting")
            }
            send(settings.topics.daemon, text: "offline", retain: true)
        case .report(let report):
            handle(report)
        }
    }

    private mutating func handle(_ report: Report) {
        switch report {
        case .weight(let weight):
            if let seen = alertsSinceConnect {
                alertsSinceConnect = nil
                alertsKnown(seen)
            }
            guard policies[weight.sensor] != nil else { return }
            // A sensor that delivers no samples: its entities go unavailable, and its last
            // stable state stays as it was, neither replaced by nothing nor shown as current.
            setAvailable(weight.sensor, weight.state == nil)
            if weight.state != nil {
                heaviestFlags[weight.sensor] = false
                publishHeaviest()
                return
            }
            publishTare(weight)
            let decision = policies[weight.sensor]!.decide(weight, now: now)
            if let state = decision.state {
                send(settings.topics.state(weight.sensor), text: Self.json(state), retain: settings.retain)
            }
            if let live = decision.live {
                send(settings.topics.live(weight.sensor), text: Self.json(live), retain: false)
            }
            heaviestFlags[weight.sensor] = weight.heaviest
            publishHeaviest()
        case .cue(let cue):
            let payload = CuePayload(cue: cue.cue, grams: cue.grams)
            send(settings.topics.cue(cue.sensor), text: Self.json(payload), retain: false)
        case .alert(let alert) where alert.removed:
            alertsSinceConnect?.remove(alert.name)
            removeAlert(alert.name)
        case .alert(let alert):
            alertsSinceConnect?.insert(alert.name)
            alertsGone.remove(HomeAssistantDiscovery.alertObjectID(alert.name))
            let isNew = alerts[alert.name] == nil
            publishAlertState(alert)
            alerts[alert.name] = alert
            if isNew { publishDeviceConfig() }
        case .button(let press) where pans.contains(press.sensor):
            // The scale's own push button: the same answer on the pan's entities as a press in
            // Home Assistant gets, so an automation can follow the physical button too.
            guard let event = PanEvent(press) else {
                log(.info, "\(press.sensor): a button press of a gesture this bridge does not know: \(press.gesture)")
                return
            }
            log(.info, "\(press.sensor): \(event.message)")
            announce(event, pan: press.sensor)
        case .tares(let library):
            tareLibraryChanged(library.tares)
        case .item(let item):
            itemReported(item)
        case .session(let news):
            sessionNews(news)
        case .state(let state):
            logState(state)
            // A sensor that delivers no samples; back to ok is proved by the next WEIGHT (a
            // warming-up sensor delivers, and stays available).
            if Self.outageStates.contains(state.state) { setAvailable(state.sensor, false) }
            if diagnostics.state(state) { publishDiagnostics(state.sensor) }
            // A fault or recovery moves the daemon's counters too: read them now.
            askDevices()
        default:
            break
        }
    }

    // MARK: publishing

    mutating func tick() {
        if let asked = devicesAskedAt, now - asked >= Self.diagnosticsInterval { askDevices() }
        for pan in pans {
            if let state = policies[pan]?.heartbeat(now: now) {
                send(settings.topics.state(pan), text: Self.json(state), retain: settings.retain)
            }
        }
    }

    /// Everything retained, as after a (re)connect: availability, the device config, states, heaviest.
    private mutating func publishAll() {
        publishDeviceConfig(force: true)
        for pan in pans {
            let available = panAvailable[pan] == false ? "offline" : "online"
            send(settings.topics.panAvailability(pan), text: available, retain: true)
            if let state = policies[pan]?.lastState {
                send(settings.topics.state(pan), text: Self.json(state), retain: settings.retain)
            }
        }
        publishedHeaviest = nil
        publishHeaviest()
        for name in alerts.keys.sorted() { publishAlertState(alerts[name]!) }
        publishAllDiagnostics()
        publishAllSettings()
        publishSession()
        send(settings.topics.daemon, text: "online", retain: true)
        send(settings.topics.availability, text: "online", retain: true)
    }

    /// The sensor states in which a sensor delivers no samples.
    static var outageStates: Set<String> { ["not-ready", "fault", "ended", "stopped"] }

    /// Publishes `pan`'s availability when it changes.
    private mutating func setAvailable(_ pan: String, _ available: Bool) {
        guard panAvailable[pan] != available else { return }
        panAvailable[pan] = available
        send(settings.topics.panAvailability(pan), text: available ? "online" : "offline", retain: true)
    }

    private mutating func publishHeaviest() {
        let heaviest = pans.first { heaviestFlags[$0] == true } ?? "none"
        guard heaviest != publishedHeaviest, !heaviestFlags.isEmpty else { return }
        publishedHeaviest = heaviest
        send(settings.topics.heaviest, text: heaviest, retain: settings.retain)
    }

    mutating func send(_ topic: String, text: String, retain: Bool) {
        send(topic, bytes: Array(text.utf8), retain: retain)
    }

    mutating func send(_ topic: String, bytes: [UInt8], retain: Bool) {
        effects.append(.publish(topic: topic, payload: bytes, retain: retain))
    }

    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }
}

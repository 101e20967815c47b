internal import PlumMQTT
internal import PlumProtocol

/// Home Assistant's settings entities (``HomeAssistantDiscovery/settingsConfigs(pans:alerts:tares:capacities:)``):
/// their commands go to the daemon through the link, as a press does, and their states are the
/// daemon's values: the tare of each `WEIGHT`, the rule of each `ALERT`, the library of each
/// `TARES`. A refused change leaves the state as it was and is told on the pan's event entity
/// and last-action sensor, as a refused tare is.
extension BridgeState {
    /// Carries out a settings command, or returns false for another topic.
    mutating func settingCommand(_ message: MQTTMessage) -> Bool {
        guard let command = settings.topics.parseSetting(message.topic) else { return false }
        // A setting is a command, like a press: a retained one would be applied at every reconnect.
        guard !message.retain else {
            log(.warning, "\(message.topic): ignoring a retained setting; publish settings without the retain flag")
            return true
        }
        var text = Substring(message.text)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        switch command {
        case .presetTare(let level), .namedTare(let level):
            guard let pan = pans.first(where: { ScaleIdentity.level($0) == level }) else {
                log(.warning, "\(message.topic): no pan \(level) on this scale; pans: \(pans.joined(separator: ", "))")
                return true
            }
            if case .namedTare = command {
                let clear = text == HomeAssistantDiscovery.noNamedTare
                apply(clear ? .presetTare(sensor: pan, grams: 0) : .useTare(sensor: pan, name: String(text)), pan: pan)
            } else if let grams = Double(text), grams.isFinite {
                apply(.presetTare(sensor: pan, grams: grams), pan: pan)
            } else {
                log(.warning, "\(message.topic): ignoring \(text.prefix(40).debugDescription); a tare is grams")
            }
        case .alert(let level, let setting):
            guard let alert = alerts.values.first(where: { ScaleIdentity.level($0.name) == level }) else {
                log(.warning, "\(message.topic): no alert \(level) on this scale")
                return true
            }
            guard let grams = Double(text), grams.isFinite else {
                log(.warning, "\(message.topic): ignoring \(text.prefix(40).debugDescription); a \(setting) is grams")
                return true
            }
            let change =
                setting == .threshold
                ? AlertChange(name: alert.name, threshold: grams) : AlertChange(name: alert.name, hysteresis: grams)
            apply(.setAlert(change), pan: alert.sensor)
        }
        return true
    }

    private mutating func apply(_ request: Request, pan: String) {
        log(.info, "Home Assistant sets \(request.line)")
        ask(.setting(request, pan: pan))
    }

    /// The daemon's answer to a setting, told on `pan`; the daemon's values shown again.
    mutating func settingAnswered(_ request: Request, pan: String, _ answer: Result<Report, BridgeError>) {
        let event: PanEvent
        switch answer {
        case .success(let reply): event = PanEvent(setting: request, reply: reply)
        case .failure(let error): event = PanEvent(setting: request, reply: .error(message: "\(error)"))
        }
        if event.reason != nil { log(.warning, "\(pan): \(event.message)") }
        announce(event, pan: pan)
        // The daemon's values again: a number Home Assistant moved shows the value in use.
        if let tare = publishedTares[pan] { send(settings.topics.presetTare(pan), text: "\(tare)", retain: true) }
        publishNamedTare(pan)
        if case .setAlert(let change) = request, let alert = alerts[change.name] { publishAlertSettings(alert) }
    }

    /// Asks the daemon for its named tares, as the link connects.
    mutating func askTares() { ask(.tares) }

    /// The daemon's named tares, or why they could not be read.
    mutating func taresAnswered(_ answer: Result<Report, BridgeError>) {
        switch answer {
        case .success(.tares(let library)): tareLibraryChanged(library.tares)
        case .success: break
        case .failure(let error): log(.info, "named tares not read from plumscaled: \(error)")
        }
        settingsRead("tares")
    }

    /// One of the reads the device config waits for came in, or failed (a daemon that cannot
    /// answer must not keep the scale out of Home Assistant); with the last one it is sent.
    mutating func settingsRead(_ what: String) {
        guard settingsSinceConnect.remove(what) != nil, settingsSinceConnect.isEmpty else { return }
        publishDeviceConfig(force: true)
    }

    /// The daemon's library changed (a `TARES` report): the selects' options and states follow.
    mutating func tareLibraryChanged(_ tares: [NamedTare]) {
        guard tares != tareLibrary else { return }
        tareLibrary = tares
        publishDeviceConfig()
        for pan in pans { publishNamedTare(pan) }
    }

    /// The pans' capacities from `?DEVICES`, the range of their numbers.
    mutating func capacitiesChanged(_ report: DevicesReport) {
        var known = capacities
        for device in report.devices { known[device.sensor] = device.capacity }
        guard known != capacities else { return }
        capacities = known
        publishDeviceConfig()
    }

    /// The tare of a reading, on the pan's preset-tare number and named-tare select, when it changed.
    mutating func publishTare(_ weight: WeightReport) {
        let tare = discovery.division.round(weight.tare)
        guard publishedTares[weight.sensor] != tare else { return }
        publishedTares[weight.sensor] = tare
        send(settings.topics.presetTare(weight.sensor), text: "\(tare)", retain: true)
        publishNamedTare(weight.sensor)
    }

    /// The named tare whose weight is the pan's tare (to half a division), else `none`.
    mutating func publishNamedTare(_ pan: String) {
        guard let tare = publishedTares[pan] else { return }
        let half = discovery.division.grams / 2
        let name = tareLibrary.first { abs($0.grams - tare) < half && tare > 0 }?.name
        send(settings.topics.namedTare(pan), text: name ?? HomeAssistantDiscovery.noNamedTare, retain: true)
    }

    /// An alert's threshold and hysteresis in use, on its numbers.
    mutating func publishAlertSettings(_ alert: AlertReport) {
        send(settings.topics.alertSetting(alert.name, .threshold), text: "\(alert.threshold)", retain: true)
        send(settings.topics.alertSetting(alert.name, .hysteresis), text: "\(alert.hysteresis)", retain: true)
    }

    /// The settings' retained states again, as after a reconnect to the broker.
    mutating func publishAllSettings() {
        for pan in pans {
            if let tare = publishedTares[pan] { send(settings.topics.presetTare(pan), text: "\(tare)", retain: true) }
            publishNamedTare(pan)
        }
    }
}

extension PanEvent {
    /// The daemon's answer to a setting: a tare (preset or named) is told as a tare is, done or
    /// refused; an alert's new values as `alert_set`, a refusal as `alert_refused`.
    init(setting request: Request, reply: Report) {
        let word = if case .setAlert = request { "alert" } else { "tare" }
        switch reply {
        case .command(let command):
            self.init(command, action: .tare)
        case .alert(let alert):
            self.init(
                eventType: "alert_set",
                message: "alert \(alert.name): threshold \(alert.threshold) g, hysteresis \(alert.hysteresis) g",
                reason: nil)
        case .error(let message):
            self.init(eventType: "\(word)_refused", message: "\(word) refused: \(message)", reason: "refused")
        default:
            self.init(
                eventType: "\(word)_refused", message: "\(word) refused: no answer from plumscaled", reason: "refused")
        }
    }
}

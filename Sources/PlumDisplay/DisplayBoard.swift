package import PlumProtocol

/// What the display knows: the link's state, the latest report of each pan and the running
/// session. A pure value: the service hands it events, and it says what to show
/// (``picture``), so every rule here is tested without a panel or a daemon.
package struct DisplayBoard: Sendable {
    /// Where the link to the daemon stands.
    package enum Link: Hashable, Sendable {
        case connecting
        case connected
        case away(reason: String)
    }

    /// The pans to show, in order; empty: every sensor, in the order first reported.
    package let wanted: [String]
    /// Where the page is ("scale.local:8385"), shown while there is no weight.
    package let pageAddress: String?
    package private(set) var link = Link.connecting
    private var latest: [String: WeightReport] = [:]
    /// When each pan's latest report arrived, in seconds on the service's monotonic clock.
    private var received: [String: Double] = [:]
    /// A pan whose reports stop for this long shows "stale", though the link is up: the daemon
    /// reports every reading, so silence means it is stuck, and its last number is no longer
    /// current.
    package static let silenceLimit = 5.0
    private var order: [String] = []
    private var session: SessionLine?
    private var sessionSensor: String?

    package init(sensors: [String], pageAddress: String?) {
        wanted = sensors
        order = sensors
        self.pageAddress = pageAddress
    }

    // MARK: Events

    /// The link connected, or went away: the weights it brought are no longer current.
    package mutating func linkChanged(_ link: Link) {
        self.link = link
        if case .connected = link { return }
        latest.removeAll()
        received.removeAll()
    }

    /// Takes a report that arrived at `now` (seconds, monotonic); the ones a display shows
    /// nothing of are ignored.
    package mutating func apply(_ report: Report, now: Double) {
        switch report {
        case .weight(let weight):
            guard wanted.isEmpty || wanted.contains(weight.sensor) else { return }
            if !order.contains(weight.sensor) { order.append(weight.sensor) }
            latest[weight.sensor] = weight
            received[weight.sensor] = now
        case .session(let reply):
            apply(session: reply)
        case .item(let item):
            guard item.event == "placed", item.sensor == sessionSensor, var line = session else { return }
            line.lastItem = Self.grams(item.grams, division: item.division)
            session = line
        default:
            break
        }
    }

    private mutating func apply(session reply: SessionReport) {
        guard reply.ok else { return }
        if let running = reply.sessions.first(where: \.running) {
            let last = running.items?.last.map { Self.grams($0.grams, division: running.division) }
            let keep = running.name == session?.name ? session?.lastItem : nil
            session = SessionLine(name: running.name, count: running.count, lastItem: last ?? keep)
            sessionSensor = running.sensor
        } else if reply.action == "stop" || reply.action == "show" {
            session = nil
            sessionSensor = nil
        }
    }

    /// The daemon's sensors in its order (`?DEVICES`): the pans show in that order, whatever
    /// order their first reports came in. A configured `sensors` list keeps its own order.
    package mutating func setSensorOrder(_ sensors: [String]) {
        guard wanted.isEmpty else { return }
        order = sensors + order.filter { !sensors.contains($0) }
    }

    // MARK: The picture

    /// What to show at `now` (seconds on the clock ``apply(_:now:)`` was given).
    package func picture(now: Double) -> DisplayPicture {
        switch link {
        case .connecting where latest.isEmpty:
            return DisplayPicture(body: .message(title: "PlumScale", lines: ["connecting"] + pageLines))
        case .away(let reason):
            return DisplayPicture(
                body: .message(title: Self.title(away: reason), lines: [Self.short(reason)] + pageLines))
        default:
            break
        }
        let pans = order.compactMap { name -> PanPicture? in
            guard let report = latest[name] else { return nil }
            let silent = now - (received[name] ?? now)
            if silent > Self.silenceLimit {
                return PanPicture(name: name, reading: .stale(seconds: silent))
            }
            return Self.pan(report)
        }
        guard !pans.isEmpty else {
            return DisplayPicture(body: .message(title: "PlumScale", lines: ["waiting for a weight"] + pageLines))
        }
        return DisplayPicture(body: .pans(pans), session: session)
    }

    private var pageLines: [String] { pageAddress.map { [$0] } ?? [] }

    /// A report as a pan shows it. Whether it is no weight is decided first: a stale report
    /// never shows its digits.
    static func pan(_ report: WeightReport) -> PanPicture {
        let reading: PanPicture.Reading
        if report.state != nil {
            reading = .noSignal(reason: report.reason ?? report.state ?? "")
        } else if report.stale {
            reading = .stale(seconds: report.age)
        } else if report.overload {
            reading = .overload
        } else if report.underload {
            reading = .underload
        } else if !report.calibrated {
            reading = .uncalibrated
        } else if report.grams != nil {
            reading = .weight(Self.digits(report.display, unit: report.unit), unit: report.unit)
        } else {
            reading = .noSignal(reason: report.reason ?? "no reading")
        }
        var count: String?
        if let pieces = report.count {
            count = String(pieces)
        } else if report.countRatio != nil {
            count = "?"
        }
        let isWeight = if case .weight = reading { true } else { false }
        let force = isWeight || reading == .overload ? Self.force(report) : nil
        return PanPicture(
            name: report.sensor, reading: reading, stable: report.stable && isWeight,
            centreOfZero: report.zero && isWeight, net: report.tare != 0, heaviest: report.heaviest && isWeight,
            force: force, hue: ForceHue(fraction: force ?? 0).degrees,
            verdict: isWeight ? report.check?.uppercased() : nil, count: isWeight ? count : nil)
    }

    /// The bar's fraction of the full scale, following the digits: the percent at full
    /// resolution changes with every reading, the shown weight only when its digits do (the
    /// engine's display hysteresis), so a pan at rest draws nothing new. To 1/1000; its colour
    /// is ``ForceHue``'s for it, as every client draws it.
    static func force(_ report: WeightReport) -> Double? {
        guard let percent = report.percent else { return nil }
        var fraction = percent / 100
        // The percent is of the gross load; the digits are net of the tare.
        if let grams = report.grams, let shown = report.shownGrams {
            let gross = grams + report.tare
            fraction = gross.magnitude > 1e-9 ? fraction * (shown + report.tare) / gross : 0
        }
        return (fraction * 1000).rounded() / 1000
    }

    /// The digits of a report's `display` ("152.2 g" → "152.2").
    static func digits(_ display: String, unit: String) -> String {
        let suffix = " " + unit
        return display.hasSuffix(suffix) ? String(display.dropLast(suffix.count)) : display
    }

    /// Grams as the scale shows them at `division`: "87.3 g".
    static func grams(_ value: Double, division: Double) -> String {
        var decimals = 0
        var step = division
        while decimals < 4, (step - step.rounded()).magnitude > 1e-9 {
            step *= 10
            decimals += 1
        }
        return fixed(value, decimals: decimals) + " g"
    }

    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        let negative = scaled < 0
        let units = Int64(scaled.magnitude)
        let whole = units / Int64(scale)
        let fraction = units % Int64(scale)
        var text = (negative ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// "plumscaled not running" when nothing listens at the socket, else "plumscaled away".
    static func title(away reason: String) -> String {
        let lower = reason.lowercased()
        let notRunning = ["no such file", "refused", "not running", "no daemon", "enoent", "econnrefused"]
        return notRunning.contains { Self.has(lower, $0) } ? "plumscaled not running" : "plumscaled away"
    }

    /// Whether `text` holds `part`, byte for byte. The standard library's own: with Foundation
    /// imported anywhere below, `String.contains(String)` resolves to Foundation's, whose link
    /// brings ICU's 34 MB into a program that needs none of it.
    static func has(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let wanted = Array(part.utf8)
        guard !wanted.isEmpty, wanted.count <= bytes.count else { return wanted.isEmpty }
        return (0...(bytes.count - wanted.count)).contains { bytes[$0..<$0 + wanted.count].elementsEqual(wanted) }
    }

    /// The first clause of a reason, short enough for a small panel.
    static func short(_ reason: String) -> String {
        let clause = reason.split(separator: ";", maxSplits: 1).first.map(String.init) ?? reason
        return clause
    }
}

/// Encodes reports as the daemon sends them: one JSON object per line, `class` first and the
/// keys in a fixed order, so every client gets the same bytes and documentation examples match.
///
/// The one encoder of the protocol (as gpsd's `gpsd_json.c`): the daemon's station and
/// transport hand it typed ``Report`` values, and ``Report/decode(_:)`` reads its output back
/// to the same values.
extension Report {
    /// The report as one protocol line, with its newline.
    public var line: String { object.line }

    /// The report as a JSON object, for nesting (the weights of a `POLL`).
    public var object: JSONWriter {
        var json = JSONWriter()
        switch self {
        case .version(let report):
            json.add("class", "VERSION")
            json.add("release", report.release)
            json.add("proto_major", report.protoMajor)
            json.add("proto_minor", report.protoMinor)
        case .watch(let options):
            json.add("class", "WATCH")
            json.add("enable", options.enable)
            json.add("sensors", strings: options.sensors)
            json.add("raw", options.raw)
            json.add("binary", options.binary)
            if options.changes { json.add("changes", true) }
        case .weight(let report):
            Self.write(report, to: &json)
        case .raw(let report):
            json.add("class", "RAW")
            json.add("sensor", report.sensor)
            json.add("times", numbers: report.times, decimals: ReportGrid.time)
            json.add("raw", integers: report.raw)
        case .poll(let report):
            Self.write(report, to: &json)
        case .devices(let report):
            json.add("class", "DEVICES")
            json.add("devices", objects: report.devices.map(\.object))
            if let uptime = report.uptime { json.add("uptime", uptime) }
            if let daemon = report.daemon { json.add("daemon", object: daemon.object) }
            if let clients = report.clients { json.add("clients", objects: clients.map(\.object)) }
        case .command(let reply):
            Self.write(reply, to: &json)
        case .calibrate(let reply):
            Self.write(reply, to: &json)
        case .cue(let report):
            json.add("class", "CUE")
            json.add("sensor", report.sensor)
            json.add("cue", report.cue)
            if let grams = report.grams { json.add("grams", grams) }
        case .state(let report):
            json.add("class", "STATE")
            json.add("sensor", report.sensor)
            json.add("state", report.state)
            if let reason = report.reason { json.add("reason", reason) }
        case .alert(let report):
            Self.write(report, to: &json)
        case .button(let report):
            json.add("class", "BUTTON")
            json.add("sensor", report.sensor)
            json.add("gesture", report.gesture)
            json.add("action", report.action)
            json.add("ok", report.ok)
            if let tare = report.tare { json.add("tare", tare) }
            if let offset = report.offset { json.add("offset", offset) }
            if let reason = report.reason { json.add("reason", reason) }
            json.add("message", report.message)
            json.add("time", report.time)
        case .item(let report):
            return report.object
        case .session(let report):
            return report.object
        case .count(let reply):
            return reply.object
        case .check(let reply):
            return reply.object
        case .overflow(let dropped):
            json.add("class", "OVERFLOW")
            json.add("dropped", dropped)
        case .error(let message):
            json.add("class", "ERROR")
            json.add("message", message)
        case .unknown(let kind):
            json.add("class", kind)
        case .tares(let report):
            json.add("class", "TARES")
            json.add("tares", objects: report.tares.map(Self.object))
            if let changed = report.changed { json.add("changed", changed) }
        case .client(let reply):
            json.add("class", "CLIENT")
            json.add("name", reply.name)
            json.add("connections", reply.connections)
        }
        return json
    }

    private static func write(_ report: WeightReport, to json: inout JSONWriter) {
        // Every real number on its grid, digit by digit (ReportGrid): the report's init put them
        // there, so this is the text the general printer gives them.
        let gramsGrid = ReportGrid.grams(division: report.division)
        json.add("class", "WEIGHT")
        json.add("sensor", report.sensor)
        json.add("time", report.time, decimals: ReportGrid.time)
        if let gramsGrid {
            json.add("grams", optional: report.grams, decimals: gramsGrid)
        } else {
            json.add("grams", optional: report.grams)
        }
        json.add("display", report.display)
        json.add("unit", report.unit)
        json.add("percent", optional: report.percent, decimals: ReportGrid.percent)
        json.add("stable", report.stable)
        json.add("overload", report.overload)
        json.add("underload", report.underload)
        json.add("zero", report.zero)
        if let gramsGrid {
            json.add("tare", report.tare, decimals: gramsGrid)
        } else {
            json.add("tare", report.tare)
        }
        json.add("heaviest", report.heaviest)
        json.add("hue", report.hue, decimals: ReportGrid.hue)
        json.add("rgb", report.rgb)
        json.add("calibrated", report.calibrated)
        if let reason = report.reason { json.add("reason", reason) }
        json.add("signal", optional: report.signal)
        if let division = report.division { json.add("division", division, decimals: ReportGrid.division) }
        if let flow = report.flow { json.add("flow", flow, decimals: ReportGrid.flow) }
        if let divisions = report.divisions { json.add("divisions", divisions) }
        if let state = report.state { json.add("state", state) }
        if report.stale { json.add("stale", true) }
        if let age = report.age { json.add("age", age, decimals: ReportGrid.time) }
        if let count = report.count { json.add("count", count) }
        if let ratio = report.countRatio { json.add("count_ratio", ratio, decimals: 2) }
        if report.countReferenceUpdated { json.add("count_reference_updated", true) }
        if let check = report.check { json.add("check", check) }
        if report.borderline { json.add("borderline", true) }
        if let withheld = report.withheld { json.add("withheld", withheld) }
    }

    private static func object(_ tare: NamedTare) -> JSONWriter {
        var json = JSONWriter()
        json.add("name", tare.name)
        json.add("grams", tare.grams)
        return json
    }

    private static func write(_ report: AlertReport, to json: inout JSONWriter) {
        json.add("class", "ALERT")
        json.add("name", report.name)
        json.add("sensor", report.sensor)
        json.add("active", report.active)
        json.add("grams", optional: report.grams)
        json.add("time", report.time)
        json.add("condition", report.condition)
        json.add("threshold", report.threshold)
        json.add("hysteresis", report.hysteresis)
        if report.removed { json.add("removed", true) }
    }

    private static func write(_ report: PollReport, to json: inout JSONWriter) {
        json.add("class", "POLL")
        json.add("time", report.time)
        json.add("active", report.active)
        json.add("total", optional: report.total)
        if let reason = report.totalReason { json.add("total_reason", reason) }
        json.add("weights", objects: report.weights.map { Report.weight($0).object })
    }

    /// The order the daemon has always sent a device's discard counts in; others follow sorted.
    static let discardOrder = [
        "stretched_clock", "integrity", "settling", "stale", "late_readout", "missed_conversion", "buffer"
    ]

    fileprivate static func object(_ device: DevicesReport.Device) -> JSONWriter {
        var json = JSONWriter()
        json.add("sensor", device.sensor)
        json.add("index", device.index)
        json.add("kind", device.kind)
        json.add("wiring", device.wiring)
        json.add("state", device.state)
        if let reason = device.reason { json.add("reason", reason) }
        json.add("rate", device.rate)
        json.add("nominal_rate", device.nominalRate)
        json.add("published", device.published)
        var discarded = JSONWriter()
        let known = discardOrder.filter { device.discarded[$0] != nil }
        let others = device.discarded.keys.filter { !discardOrder.contains($0) }.sorted()
        for key in known + others { discarded.add(JSONWriter.Key(key), device.discarded[key] ?? 0) }
        json.add("discarded", object: discarded)
        json.add("not_ready", device.notReady)
        json.add("faults", device.faults)
        json.add("notices", strings: device.notices)
        json.add("calibrated", device.calibrated)
        if let date = device.calibrationDate { json.add("calibration_date", date) }
        if let quality = device.calibrationQuality { json.add("calibration_quality", quality) }
        if let grade = device.calibrationGrade { json.add("calibration_grade", grade) }
        if let reason = device.calibrationReason { json.add("calibration_reason", reason) }
        if let capacity = device.capacity { json.add("capacity", capacity) }
        if let profile = device.profile { json.add("profile", profile) }
        if let restore = device.restore { json.add("restore", restore) }
        if let reason = device.restoreReason { json.add("restore_reason", reason) }
        if let fault = device.lastFault { json.add("last_fault", fault) }
        if let time = device.lastFaultTime { json.add("last_fault_time", time) }
        return json
    }

    private static func write(_ reply: CommandReply, to json: inout JSONWriter) {
        json.add("class", reply.command)
        json.add("sensor", reply.sensor)
        json.add("ok", reply.ok)
        if let tare = reply.tare { json.add("tare", tare) }
        if let offset = reply.offset { json.add("offset", offset) }
        if let reason = reply.reason { json.add("reason", reason) }
        if let message = reply.message { json.add("message", message) }
    }

    private static func write(_ reply: CalibrationReply, to json: inout JSONWriter) {
        json.add("class", "CALIBRATE")
        json.add("sensor", reply.sensor)
        json.add("step", reply.step)
        json.add("ok", reply.ok)
        if let points = reply.points { json.add("points", points) }
        if let grams = reply.grams { json.add("grams", numbers: grams) }
        if let residuals = reply.residuals { json.add("residuals", numbers: residuals) }
        if let quality = reply.quality { json.add("quality", quality) }
        if let notice = reply.notice { json.add("notice", notice) }
        if let date = reply.calibrationDate { json.add("calibration_date", date) }
        if let saved = reply.saved {
            json.add("saved", saved)
        } else if reply.step == "commit", reply.ok {
            // A fit in use but not saved: the client must see that nothing was written.
            json.addNull("saved")
        }
        if let message = reply.message { json.add("message", message) }
    }
}

extension DevicesReport.Device {
    /// The device as the daemon's `DEVICES` report carries it, for a client that passes it on
    /// (plumscale-web's `/api/devices`): the one encoder, so no copy of the fields drifts.
    public var object: JSONWriter { Report.object(self) }
}

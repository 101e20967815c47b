package import PlumProtocol

/// The JSON text frames the page receives over its WebSocket, and the objects `/api/poll` and
/// `/api/devices` return. One encoder, so the page and scripts see the same fields.
///
/// Every frame has a `type`: `weight`, `cue`, `state`, `status` (the link to plumscaled),
/// `tares`, `item` (a fruit placed or removed) and `session` (a weighing session's news).
/// The colour (`hue`, `rgb`) is the daemon's ForceHue, passed through, never recomputed.
package enum BrowserFrame {
    package static func weight(_ report: WeightReport) -> String {
        weightObject(report, type: true).finished
    }

    /// The daemon's own WEIGHT object (PlumProtocol's one encoder, so the page sees every field
    /// the daemon sends, `division` included), with the frame's `type` added.
    package static func weightObject(_ report: WeightReport, type: Bool) -> JSONWriter {
        var json = Report.weight(report).object
        if type { json.add("type", "weight") }
        return json
    }

    /// An `ITEM` as the daemon sent it (seq, placed or removed, grams, class, flags), typed `item`.
    package static func item(_ report: ItemReport) -> String {
        var json = Report.item(report).object
        json.add("type", "item")
        return json.finished
    }

    /// A `SESSION` as the daemon sent it to watchers (a start, a stop, or the figures after each
    /// item the running session recorded), typed `session`; the items themselves are fetched
    /// from `GET /api/weighing/session`.
    package static func session(_ report: SessionReport) -> String {
        var json = Report.session(report).object
        json.add("type", "session")
        return json.finished
    }

    package static func cue(_ report: CueReport) -> String {
        var json = JSONWriter()
        json.add("type", "cue")
        json.add("sensor", report.sensor)
        json.add("cue", report.cue)
        json.add("grams", optional: report.grams)
        return json.finished
    }

    package static func state(_ report: StateReport) -> String {
        var json = JSONWriter()
        json.add("type", "state")
        json.add("sensor", report.sensor)
        json.add("state", report.state)
        if let reason = report.reason { json.add("reason", reason) }
        return json.finished
    }

    /// Whether the service is connected to plumscaled, and why not.
    package static func status(connected: Bool, message: String?) -> String {
        var json = JSONWriter()
        json.add("type", "status")
        json.add("connected", connected)
        if let message { json.add("message", message) }
        return json.finished
    }

    /// The daemon's named tares, sorted by name: sent to every browser when the library changes,
    /// and the answer of `GET /api/tares` and `POST /api/tares`.
    package static func tares(_ report: TareLibraryReport) -> String {
        var json = JSONWriter()
        json.add("type", "tares")
        json.add(
            "tares",
            objects: report.tares.map { tare in
                var object = JSONWriter()
                object.add("name", tare.name)
                object.add("grams", tare.grams)
                return object
            })
        if let changed = report.changed { json.add("changed", changed) }
        return json.finished
    }

    /// A device as the daemon reports it (PlumProtocol's one encoder).
    package static func device(_ device: DevicesReport.Device) -> JSONWriter { device.object }

    /// The reply to a tare or zero, for the page and scripts.
    package static func command(_ reply: CommandReply) -> String {
        var json = JSONWriter()
        json.add("command", reply.command)
        json.add("sensor", reply.sensor)
        json.add("ok", reply.ok)
        json.add("tare", optional: reply.tare)
        json.add("offset", optional: reply.offset)
        if let reason = reply.reason { json.add("reason", reason) }
        if let message = reply.message { json.add("message", message) }
        return json.finished
    }

    /// The reply to one calibration step, with the fit's residuals when there is one.
    package static func calibration(_ reply: CalibrationReply) -> String {
        var json = JSONWriter()
        json.add("sensor", reply.sensor)
        json.add("step", reply.step)
        json.add("ok", reply.ok)
        if let points = reply.points { json.add("points", points) }
        if let message = reply.message { json.add("message", message) }
        if let grams = reply.grams { json.add("grams", numbers: grams) }
        if let residuals = reply.residuals { json.add("residuals", numbers: residuals) }
        if let quality = reply.quality { json.add("quality", quality) }
        if let notice = reply.notice { json.add("notice", notice) }
        if let saved = reply.saved { json.add("saved", saved) }
        return json.finished
    }

    /// An error for the page: `{"ok":false,"message":…}`.
    package static func failure(_ message: String) -> String {
        var json = JSONWriter()
        json.add("ok", false)
        json.add("message", message)
        return json.finished
    }
}

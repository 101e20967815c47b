/// The client side of ``Request``: the one place a request line is written.
///
/// ``Request/parse(_:)`` is its inverse; `RequestTests` proves every request round-trips, so a
/// client never builds a request from strings of its own.
extension Request {
    /// The request as one line, without its newline: `?TARE={"sensor":"left"};`.
    public var line: String {
        switch self {
        case .watch(let options):
            var json = JSONWriter()
            json.add("enable", options.enable)
            json.add("sensors", strings: options.sensors)
            if options.raw { json.add("raw", true) }
            if options.binary { json.add("binary", true) }
            if options.changes { json.add("changes", true) }
            return "?WATCH=\(json.finished);"
        case .poll: return "?POLL;"
        case .devices: return "?DEVICES;"
        case .version: return "?VERSION;"
        case .tare(let sensor): return "?TARE=\(Self.sensorArgument(sensor));"
        case .zero(let sensor): return "?ZERO=\(Self.sensorArgument(sensor));"
        case .calibrate(let request):
            var json = JSONWriter()
            json.add("sensor", request.sensor)
            json.add("step", request.step.rawValue)
            if let grams = request.grams { json.add("grams", grams) }
            return "?CALIBRATE=\(json.finished);"
        case .presetTare(let sensor, let grams):
            var json = JSONWriter()
            json.add("sensor", sensor)
            json.add("grams", grams)
            return "?TARE=\(json.finished);"
        case .useTare(let sensor, let name):
            var json = JSONWriter()
            json.add("sensor", sensor)
            json.add("name", name)
            return "?TARE=\(json.finished);"
        case .tares(let library): return Self.line(library)
        case .setAlert(let change):
            var json = JSONWriter()
            json.add("name", change.name)
            if let threshold = change.threshold { json.add("threshold", threshold) }
            if let hysteresis = change.hysteresis { json.add("hysteresis", hysteresis) }
            if change.clear { json.add("clear", true) }
            return "?ALERT=\(json.finished);"
        case .session(let request): return "?SESSION=\(request.json.finished);"
        case .count(let request): return "?COUNT=\(request.json.finished);"
        case .check(let request): return "?CHECK=\(request.json.finished);"
        case .client(let announcement): return "?CLIENT=\(announcement.json.finished);"
        }
    }

    private static func line(_ library: TareLibraryRequest) -> String {
        var json = JSONWriter()
        switch library {
        case .list: return "?TARES;"
        case .save(let name, let sensor, let grams):
            json.add("save", name)
            if let sensor { json.add("sensor", sensor) }
            if let grams { json.add("grams", grams) }
        case .delete(let name): json.add("delete", name)
        }
        return "?TARES=\(json.finished);"
    }

    private static func sensorArgument(_ sensor: String) -> String {
        var json = JSONWriter()
        json.add("sensor", sensor)
        return json.finished
    }
}

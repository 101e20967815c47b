internal import Logging
internal import PlumCore
internal import PlumProtocol

/// What the station's state decided that only the actor can carry out, in the order it was
/// decided: lines for the log, reports for the clients, the waits a reading ends, cues for the
/// buzzer. ``StationState`` appends them; ``Station`` carries them out, in order, and keeps
/// nothing else of them.
struct StationEffects {
    enum Effect {
        case log(Logger.Level, String)
        /// A report for the watchers of `sensor` ("" for every watcher of all sensors).
        case event(Report, sensor: String)
        case raw(RawReport)
        case weight(WeightReport, frame: BinaryFrame)
        /// The waits a sample or a state ended (`SensorChannel.Outputs`): MT-SICS `S`, `SI`,
        /// `SIR`, a calibration's capture.
        case waits(SensorChannel.Outputs, sensor: String)
        case cue(Cue, sensor: String)
    }

    private(set) var list: [Effect] = []

    mutating func log(_ level: Logger.Level, _ message: String) { list.append(.log(level, message)) }
    mutating func log(_ lines: [(level: Logger.Level, message: String)]) {
        list += lines.map { .log($0.level, $0.message) }
    }
    mutating func publish(_ report: Report, sensor: String) { list.append(.event(report, sensor: sensor)) }
    mutating func append(_ effect: Effect) { list.append(effect) }
    /// Empties the list and keeps its storage, for the next turn's effects.
    mutating func removeAll() { list.removeAll(keepingCapacity: true) }
}

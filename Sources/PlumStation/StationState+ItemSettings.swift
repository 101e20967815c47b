internal import Logging
internal import PlumCore
internal import PlumProtocol
internal import PlumStore

/// The piece-count reference (`?COUNT`) and the check-weighing limits (`?CHECK`) of each
/// sensor, kept over a restart in ``RuntimeSettings`` (``RuntimeSettingsStore``).
///
/// A reference is taken from the load on the pan, so it is used at once, as before; it is
/// then saved, and a save that fails is said in the reply (it holds until the daemon stops).
/// At start each saved one is put back on its sensor. A reload (SIGHUP) keeps the channels and
/// what they count and check, so it needs nothing from the file.
extension StationState {
    /// The reply to `?COUNT`, the reference saved.
    mutating func countReply(_ request: CountRequest) -> Report {
        guard case .count(var reply)? = update(request.sensor, { $0.count(request) }) else {
            return channels.unknownSensor(request.sensor)
        }
        guard reply.ok else { return .count(reply) }
        var runtime = runtime
        runtime.counts[request.sensor] = channels[request.sensor]?.counter.map(RuntimeSettings.CountReference.init)
        reply.message += keep(runtime)
        return .count(reply)
    }

    /// Saves `sensor`'s count reference after optimisation updated it, so a restart counts on
    /// from the latest reference, not from the first. A save that fails is logged; the updated
    /// reference holds until the daemon stops.
    mutating func keepUpdatedCountReference(of sensor: String) {
        guard let counter = channels[sensor]?.counter else { return }
        var runtime = runtime
        runtime.counts[sensor] = RuntimeSettings.CountReference(counter)
        let note = keep(runtime)
        if !note.isEmpty { log(.warning, "\(sensor): count reference updated\(note)") }
    }

    /// The reply to `?CHECK`, the limits saved.
    mutating func checkReply(_ request: CheckRequest) -> Report {
        guard case .check(var reply)? = update(request.sensor, { $0.check(request) }) else {
            return channels.unknownSensor(request.sensor)
        }
        guard reply.ok else { return .check(reply) }
        var runtime = runtime
        runtime.checks[request.sensor] = channels[request.sensor]?.checking.map {
            RuntimeSettings.CheckLimits(
                target: $0.weigher.targetGrams, minus: $0.weigher.minusGrams, plus: $0.weigher.plusGrams, cue: $0.cue)
        }
        reply.message += keep(runtime)
        return .check(reply)
    }

    /// Saves `runtime` when it changed: "" when saved, else a note for the reply (the failure
    /// is logged too), as a session's save says it.
    private mutating func keep(_ runtime: RuntimeSettings) -> String {
        guard runtime != self.runtime else { return "" }
        if let error = noteSave("runtime settings", files.settings.save(runtime)) {
            return "; not saved to disk (\(error.message); \(error.hint)): it holds until the daemon stops"
        }
        self.runtime = runtime
        return ""
    }

    /// Puts the saved references and limits back on their sensors at start; one that no longer
    /// fits (its sensor left the configuration, or its values are refused) is logged and left in
    /// the file until that sensor's next `?COUNT` or `?CHECK`.
    static func restoreItemSettings(
        _ runtime: RuntimeSettings, into channels: inout ChannelSet, log: inout [(level: Logger.Level, message: String)]
    ) {
        for (sensor, saved) in runtime.counts.sorted(by: { $0.key < $1.key }) {
            guard var channel = channels[sensor] else {
                log.append((.warning, "\(sensor): piece count not restored: no such sensor in the configuration"))
                continue
            }
            do {
                var counter = try PieceCounter(
                    unitGrams: saved.unitGrams, pieces: saved.pieces, division: channel.engine.configuration.division,
                    minimumWeight: channel.engine.configuration.minimumWeight)
                counter.optimizes = saved.optimize ?? false
                channel.counter = counter
                channels[sensor] = channel
                let unit = FixedPoint.text(saved.unitGrams, decimals: 4)
                log.append(
                    (
                        .notice,
                        "\(sensor): counting restored: \(saved.pieces) pieces, one weighs \(unit) g"
                            + (counter.optimizes ? ", optimised as pieces are added" : "")
                    ))
            } catch {
                log.append((.warning, "\(sensor): piece count not restored: \(error)"))
            }
        }
        for (sensor, saved) in runtime.checks.sorted(by: { $0.key < $1.key }) {
            guard var channel = channels[sensor] else {
                log.append((.warning, "\(sensor): check-weighing not restored: no such sensor in the configuration"))
                continue
            }
            do {
                let weigher = try CheckWeigher(
                    target: saved.target, minus: saved.minus, plus: saved.plus,
                    minimumWeight: channel.engine.configuration.minimumWeight)
                channel.checking = ChannelCheck(weigher: weigher, cue: saved.cue, last: nil)
                channels[sensor] = channel
                let division = channel.engine.configuration.division
                log.append(
                    (
                        .notice,
                        "\(sensor): check-weighing restored: \(division.format(saved.target - saved.minus)) g to "
                            + "\(division.format(saved.target + saved.plus)) g is ok"
                    ))
            } catch {
                log.append((.warning, "\(sensor): check-weighing not restored: \(error)"))
            }
        }
    }
}

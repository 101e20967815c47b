import ArgumentParser
import PlumClient
import PlumConsole
import PlumCore
import PlumProtocol
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale calibrate`: the known-weight calibration, as a wizard or from a script.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a sensor with known weights: a wizard, or --point … --yes for scripts.",
        discussion: """
            The wizard asks you to empty the pan (that sets zero), then to place known weights \
            one at a time and type their grams; it shows the fit with each point's residual and \
            saves it when you confirm. Each point is taken when the load is stable.

            For scripts: --point 0 --point 100 --point 200 --yes. The first point is the empty \
            pan; each later point waits (up to --wait seconds) for the load to change to the next \
            weight and settle. Without --yes the fit is shown and not saved.

            --rollback puts the previous saved calibration back into use.

            Exit codes: 0 saved; 2 refused (not stable, degenerate fit, not saved); 6 no daemon; \
            7 unknown sensor.
            """)

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("The sensor to calibrate (needed when the daemon has several).", valueName: "name"))
    var sensor: String?

    @Option(
        name: .customLong("point"),
        help: ArgumentHelp("A known weight in grams, in order; the first is 0, the empty pan.", valueName: "grams"))
    var points: [Double] = []

    @Flag(help: "Save the fit without asking.")
    var yes = false

    @Flag(help: "Put the previous saved calibration back into use (after a bad calibration, or a damaged file).")
    var rollback = false

    @Option(help: ArgumentHelp("How long a scripted point waits for its weight, in seconds.", valueName: "seconds"))
    var wait: Double = 120

    func validate() throws {
        if rollback && (!points.isEmpty || yes) {
            throw ValidationError("--rollback restores the previous calibration; it takes no --point or --yes.")
        }
        if let first = points.first, first != 0 {
            throw ValidationError("The first --point is the empty pan: start with --point 0, then the known weights.")
        }
        if let bad = points.dropFirst().first(where: { !($0 > 0) || !$0.isFinite }) {
            throw ValidationError("--point \(bad): a known weight is a positive number of grams.")
        }
        if points.count == 1 {
            throw ValidationError(
                "--point 0 alone is not a calibration: add at least one known weight, such as --point 100.")
        }
        guard wait > 0 else { throw ValidationError("--wait must be more than 0 seconds.") }
    }

    func run() throws {
        let connection = try client.connect()
        let saved = try CommandError.exitOnFailure { () throws -> Bool in
            let name = try chooseSensor(connection)
            let wizard = Wizard(connection: connection, sensor: name)
            if rollback { return try wizard.rollBack() }
            return points.isEmpty ? try wizard.interactive() : try wizard.scripted(points, save: yes, wait: wait)
        }
        if !saved { throw ExitStatus.refused }
    }

    private func chooseSensor(_ connection: DaemonClient) throws -> String {
        if let sensor { return try connection.sensors([sensor])[0].sensor }
        let all = try connection.devices()
        guard all.count == 1 else {
            let names = all.map(\.sensor).joined(separator: ", ")
            throw CommandError(.usage, "this daemon has \(all.count) sensors (\(names)); choose one with --sensor")
        }
        return all[0].sensor
    }
}

/// The steps of `?CALIBRATE`, said to a person.
struct Wizard {
    let connection: DaemonClient
    let sensor: String

    /// Asks on the terminal. Returns whether the calibration was saved.
    func interactive() throws -> Bool {
        _ = try step(.begin)
        let span = CalibrationText.span(try connection.sensors([sensor]).first?.capacity)
        say("Calibrating \(sensor) with known weights. You need one or more weights whose mass you know,")
        say("together spanning at least a fifth of full scale (\(span)).")
        say("")
        say("1. Remove everything from the pan and keep it still, then press Enter.")
        guard ask() != nil else { return try cancel() }
        while true {
            say("   Waiting for a stable empty pan…")
            let reply = try step(.zero)
            say("   \(reply.message ?? "zero captured")")
            if reply.ok { break }
            say("   Press Enter to try again.")
            guard ask() != nil else { return try cancel() }
        }
        var weights = 0
        // A weight typed at the save prompt, to check an unchecked fit: captured, then refitted.
        var third: Double?
        while true {
            while third == nil {
                say("")
                let orFinish = weights > 0 ? " (or just Enter to finish)" : ""
                say("2. Place a known weight on the pan and type its mass in grams\(orFinish):")
                guard let answer = ask() else { return try cancel() }
                if answer.isEmpty {
                    if weights > 0 { break }
                    say("   At least one known weight is needed.")
                    continue
                }
                guard let grams = Self.grams(answer) else {
                    say("   '\(answer)' is not a mass in grams; type a number such as 100 or 200.5.")
                    continue
                }
                if try capture(grams) { weights += 1 }
            }
            if let grams = third {
                third = nil
                if try capture(grams) { weights += 1 }
            }
            let fit = try step(.fit)
            say("")
            say("3. The fit:")
            say(CalibrationText.table(fit))
            guard fit.ok else {
                // The points so far are kept: an FSR needs more of them, or the span was too small.
                say("   Add another known weight (the points so far are kept); Ctrl-D cancels.")
                continue
            }
            if fit.quality?.contains("check before saving") == true {
                say("   The signal per gram is far from what the sensor's profile expects: was the weight you")
                say("   typed the one on the pan? Answer n to cancel and calibrate again.")
            }
            guard let advice = CalibrationText.unchecked(fit) else { break }
            say("   \(advice)")
            say("Save and use this calibration? [y/N], or place a third known weight and type its grams:")
            guard let answer = ask() else { return try cancel() }
            if let grams = Self.grams(answer) {
                third = grams
                continue
            }
            guard answer.lowercased().hasPrefix("y") else { return try cancel() }
            return try commit()
        }
        say("Save and use this calibration? [y/N]")
        guard let answer = ask(), answer.lowercased().hasPrefix("y") else { return try cancel() }
        return try commit()
    }

    /// Captures a known weight once it settles; whether it was taken.
    private func capture(_ grams: Double) throws -> Bool {
        say("   Waiting for \(FixedPoint.text(grams, decimals: 1)) g to settle…")
        let reply = try step(.point, grams: grams)
        say("   \(reply.message ?? "")")
        return reply.ok
    }

    /// Takes `points` (the first is 0, the empty pan) as the load settles at each.
    /// - Parameter label: starts each progress line instead of the sensor's name; `plumscale
    ///   setup` passes "calibrate NAME", and a script that sets the load watches for
    ///   "calibrate NAME: place 100 g".
    func scripted(_ points: [Double], save: Bool, wait: Double, label: String? = nil) throws -> Bool {
        _ = try step(.begin)
        for grams in points {
            let deadline = Monotonic.seconds() + wait
            let weight = label == nil ? FixedPoint.text(grams, decimals: 1) : Self.compact(grams)
            say(
                grams == 0
                    ? "\(label ?? sensor): empty pan, waiting for stable…"
                    : "\(label ?? sensor): place \(weight) g; waiting for it to settle…")
            while true {
                let reply = grams == 0 ? try step(.zero) : try step(.point, grams: grams)
                if reply.ok {
                    say("\(sensor): \(reply.message ?? "captured")")
                    break
                }
                guard Monotonic.seconds() < deadline else {
                    _ = try? step(.cancel)
                    throw CommandError(
                        .refused, "\(sensor): \(reply.message ?? "no stable load"); calibration cancelled")
                }
            }
        }
        let fit = try step(.fit)
        print(CalibrationText.table(fit))
        if fit.ok, let advice = CalibrationText.unchecked(fit) { say("\(sensor): \(advice)") }
        guard fit.ok else {
            _ = try? step(.cancel)
            throw CommandError(
                .refused, "\(sensor): calibration refused: \(fit.message ?? "the fit is not usable"); nothing saved")
        }
        guard save else {
            _ = try step(.cancel)
            say("not saved: add --yes to save and use this calibration")
            return false
        }
        return try commit()
    }

    /// Restores the previous saved calibration.
    func rollBack() throws -> Bool {
        let reply = try step(.rollback)
        guard reply.ok else {
            say("\(sensor): no rollback: \(reply.message ?? "")")
            return false
        }
        print("\(sensor): \(reply.message ?? "rolled back")")
        if let quality = reply.quality { print("   quality: \(quality)") }
        return true
    }

    private func commit() throws -> Bool {
        let reply = try step(.commit)
        guard reply.ok else {
            say("\(sensor): not committed: \(reply.message ?? "")")
            return false
        }
        if let path = reply.saved {
            print("\(sensor): calibration saved to \(path) and in use now")
            return true
        }
        say("\(sensor): \(reply.message ?? "the calibration is in use but was not saved")")
        return false
    }

    private func cancel() throws -> Bool {
        _ = try step(.cancel)
        say("Calibration cancelled; the calibration in use is unchanged.")
        return false
    }

    /// Sends one step and returns the daemon's CALIBRATE answer (a capture waits for stable).
    private func step(_ step: CalibrationRequest.Step, grams: Double? = nil) throws(ClientError) -> CalibrationReply {
        try connection.calibrate(CalibrationRequest(sensor: sensor, step: step, grams: grams))
    }

    /// Grams as a script types them: "100", "250.5".
    static func compact(_ grams: Double) -> String {
        FixedPoint.text(grams, decimals: grams == grams.rounded() ? 0 : 1)
    }

    /// "100", "100g", "100 g" or "100.5" as grams.
    static func grams(_ text: String) -> Double? {
        var number = Substring(text.lowercased())
        if number.hasSuffix("g") { number = number.dropLast() }
        guard let value = Double(number.trimmingSpaces), value > 0, value.isFinite else { return nil }
        return value
    }

    /// A line on standard error: prompts and progress stay off standard output, which carries
    /// the fit and the result for a script.
    private func say(_ text: String) {
        let line = text + "\n"
        Syscalls.writeStandardError(line)
    }

    /// A line from standard input, trimmed; nil at end of input.
    private func ask() -> String? {
        readLine(strippingNewline: true).map { String($0.trimmingSpaces) }
    }
}

extension StringProtocol {
    var trimmingSpaces: Substring {
        let characters = self[...]
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return Substring(characters[first...last])
    }
}

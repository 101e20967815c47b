import ArgumentParser
import PlumClient
import PlumConsole
import PlumCore
import PlumProtocol

/// `plumscale read`: one reading per sensor, or the first stable one.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print one reading per sensor from plumscaled.",
        discussion: """
            With --stable it waits until each sensor's weight has settled (up to --timeout \
            seconds) and prints that reading; exit code 2 when one did not settle in time.
            """)

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("Only this sensor (repeat for several).", valueName: "name"))
    var sensor: [String] = []

    @Flag(help: "Wait for a stable reading.")
    var stable = false

    @Option(help: ArgumentHelp("How long --stable waits, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "Print the daemon's WEIGHT reports as JSON lines.")
    var json = false

    @Option(help: ArgumentHelp("The unit to show: g, oz, lb or ct.", valueName: "unit"))
    var unit: String = "g"

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be between 0 and 3600 seconds, not \(timeout).")
        }
        if case .failure(let refusal) = MassUnit.parse(unit) { throw ValidationError("--unit: \(refusal.description)") }
    }

    func run() throws {
        let unit = (try? MassUnit.parse(unit).get()) ?? .gram
        let connection = try client.connect()
        let readings = try CommandError.exitOnFailure { try collect(connection) }
        let width = readings.map(\.report.sensor.count).max() ?? 0
        var unsettled: [String] = []
        for (report, line) in readings {
            print(json ? line : ReadingText.line(report, unit: unit, nameWidth: width, several: readings.count > 1))
            if stable && !report.stable { unsettled.append(report.sensor) }
        }
        if !unsettled.isEmpty {
            let seconds = FixedPoint.text(timeout, decimals: 0)
            printError(
                "no stable reading within \(seconds) s from \(unsettled.joined(separator: ", ")): "
                    + "keep the pan still, away from draughts, and try again")
            throw ExitStatus.refused
        }
    }

    /// The first reading (or first stable reading) of each sensor asked for, in the daemon's
    /// order; a sensor that did not settle in time is returned with its last reading.
    private func collect(_ connection: DaemonClient) throws -> [(report: WeightReport, line: String)] {
        let devices = try connection.sensors(sensor)
        let broken = devices.filter { $0.state == "fault" || $0.state == "not-ready" }
        for device in broken {
            printError("\(device.sensor): \(device.state)\(device.reason.map { ": \($0)" } ?? "")")
        }
        let wanted = devices.filter { device in !broken.contains { $0.sensor == device.sensor } }.map(\.sensor)
        guard !wanted.isEmpty else {
            throw CommandError(.refused, "no sensor is giving readings; see plumscale status")
        }
        try connection.watch(WatchOptions(sensors: wanted))
        var latest: [String: (report: WeightReport, line: String)] = [:]
        var done: Set<String> = []
        var stale: [String: WeightReport] = [:]
        let deadline = Monotonic.seconds() + (stable ? timeout : 5)
        while done.count < wanted.count {
            let left = deadline - Monotonic.seconds()
            guard left > 0, let received = try connection.receive(timeout: left.seconds) else { break }
            guard case .weight(let report) = received.report else { continue }
            if report.stale {
                // It stopped delivering after `?DEVICES` said it was fine: no weight to show,
                // unless it comes back before the deadline.
                stale[report.sensor] = report
                latest[report.sensor] = nil
                continue
            }
            stale[report.sensor] = nil
            latest[report.sensor] = (report, received.line)
            if !stable || report.stable { done.insert(report.sensor) }
        }
        for name in wanted {
            guard let report = stale[name] else { continue }
            printError("\(name): \(report.state ?? "unavailable")\(report.reason.map { ": \($0)" } ?? "")")
        }
        if stale.count == wanted.count {
            throw CommandError(.refused, "no sensor is giving readings; see plumscale status")
        }
        let missing = wanted.filter { latest[$0] == nil && stale[$0] == nil }
        if !missing.isEmpty {
            let seconds = stable ? Int(timeout) : 5
            throw CommandError(
                .refused, "no reading from \(missing.joined(separator: ", ")) within \(seconds) s; see plumscale status"
            )
        }
        return wanted.compactMap { latest[$0] }
    }
}

import ArgumentParser
import PlumClient
import PlumConsole
import PlumCore
import PlumProtocol
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale watch`: a live view of every pan.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "A live view: a bar per sensor in the force colour, grams, percent, the heaviest pan in yellow.",
        discussion: """
            Redraws in place ten times a second; Ctrl-C restores the terminal and quits. When \
            standard output is not a terminal it prints a plain line whenever a sensor's \
            reading changes. Colour: 24-bit when COLORTERM is truecolor or 24bit, 256 colours \
            when TERM says so, none with NO_COLOR or TERM=dumb.
            """)

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("Only this sensor (repeat for several).", valueName: "name"))
    var sensor: [String] = []

    @Option(help: ArgumentHelp("The unit to show: g, oz, lb or ct.", valueName: "unit"))
    var unit: String = "g"

    func validate() throws {
        if case .failure(let refusal) = MassUnit.parse(unit) { throw ValidationError("--unit: \(refusal.description)") }
    }

    func run() throws {
        let connection = try client.connect()
        var session = WatchSession(connection: connection, unit: (try? MassUnit.parse(unit).get()) ?? .gram)
        try session.run(sensors: sensor)
    }
}

/// The watch loop, shared by `watch` and `demo`: reads reports as they come and redraws the
/// gauge on a 100 ms tick, until Ctrl-C or the daemon goes away.
struct WatchSession {
    let connection: DaemonClient
    let unit: MassUnit
    var title: String?

    init(connection: DaemonClient, unit: MassUnit, title: String? = nil) {
        self.connection = connection
        self.unit = unit
        self.title = title
    }

    mutating func run(sensors: [String]) throws {
        InterruptFlag.install()
        let devices = try CommandError.exitOnFailure {
            let devices = try connection.sensors(sensors)
            try connection.watch(WatchOptions(sensors: devices.map(\.sensor)))
            return devices
        }
        var rows = devices.map { device in
            Gauge.Row(
                sensor: device.sensor,
                trouble: device.state == "fault" || device.state == "not-ready"
                    ? "\(device.state)\(device.reason.map { ": \($0)" } ?? "")" : nil)
        }
        var cueTimes: [String: Double] = [:]
        // The running session, if any, shown under the gauge and kept up by its SESSION news.
        var running = (try? connection.session(SessionRequest(action: .show)))?.sessions.first { $0.running }
        var printedSession: String?
        let screen = Terminal.isTerminal(1) ? Terminal.Screen() : nil
        let gauge = Gauge(colour: screen.map { _ in Terminal.colour() } ?? .none, unit: unit)
        var printed: [String: String] = [:]
        let header =
            title
            ?? "plumscale watch · plumscaled \(connection.version.release) at \(connection.socketPath) · Ctrl-C to quit"
        screen?.begin(header)
        defer { screen?.end() }

        var nextDraw = Monotonic.seconds()
        do {
            while !InterruptFlag.isSet {
                let wait = max(0, nextDraw - Monotonic.seconds())
                if let report = try connection.nextReport(timeout: wait.seconds) {
                    switch report {
                    case .weight(let report):
                        if let index = rows.firstIndex(where: { $0.sensor == report.sensor }) {
                            // A stale report has no weight: the row shows its state and hint.
                            rows[index].report = report.stale ? nil : report
                            rows[index].trouble =
                                report.stale
                                ? "\(report.state ?? "unavailable")\(report.reason.map { ": \($0)" } ?? "")" : nil
                        }
                    case .state(let state):
                        if let index = rows.firstIndex(where: { $0.sensor == state.sensor }) {
                            rows[index].trouble =
                                state.state == "ok" || state.state == "settling"
                                ? nil : "\(state.state)\(state.reason.map { ": \($0)" } ?? "")"
                        }
                    case .session(let news) where news.ok:
                        running = news.action == "stop" ? nil : news.sessions.first ?? running
                    case .cue(let cue) where cue.cue == "max-force":
                        cueTimes[cue.sensor] = Monotonic.seconds()
                        if screen == nil {
                            print("\(cue.sensor)  ♪ max force")
                            fflush(nil)
                        }
                    default:
                        break
                    }
                    if connection.hasPendingInput { continue }
                }
                let now = Monotonic.seconds()
                guard now >= nextDraw else { continue }
                nextDraw = now + 0.1
                for index in rows.indices { rows[index].cueAge = cueTimes[rows[index].sensor].map { now - $0 } }
                let sessionLine = running.map(SessionText.running)
                if let screen {
                    screen.draw(gauge.lines(rows, columns: Terminal.columns()) + (sessionLine.map { [$0] } ?? []))
                } else {
                    plainLines(rows, printed: &printed)
                    if let sessionLine, sessionLine != printedSession {
                        print(sessionLine)
                        fflush(nil)
                    }
                    printedSession = sessionLine
                }
            }
        } catch {
            screen?.end()
            let failure = CommandError(error)
            printError("\(failure.message) — stopped watching")
            throw failure.exitCode
        }
    }

    /// Without a terminal: a line for each sensor whose shown reading changed since the last.
    private func plainLines(_ rows: [Gauge.Row], printed: inout [String: String]) {
        let width = rows.map(\.sensor.count).max() ?? 0
        var any = false
        for row in rows {
            let text =
                row.trouble.map { "\(row.sensor.padding(to: width))  \($0)" }
                ?? row.report.map { ReadingText.line($0, unit: unit, nameWidth: width, several: rows.count > 1) }
            guard let text, printed[row.sensor] != text else { continue }
            printed[row.sensor] = text
            print(text)
            any = true
        }
        if any { fflush(nil) }
    }
}

/// The few terminal facts the gauge needs.
enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The terminal's width in columns, 80 when unknown.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// The colour the terminal shows, from the usual environment conventions.
    static func colour() -> Gauge.Colour {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if variable("NO_COLOR").map({ !$0.isEmpty }) ?? false { return .none }
        let term = variable("TERM") ?? ""
        if term.isEmpty || term == "dumb" { return .none }
        if let colourTerm = variable("COLORTERM"), colourTerm == "truecolor" || colourTerm == "24bit" {
            return .trueColour
        }
        if term.contains("256color") { return .palette256 }
        return .basic
    }

    /// In-place redrawing: each frame goes out in one write, moving up over the last frame and
    /// clearing each line, so nothing flickers; the cursor is hidden while drawing.
    final class Screen {
        private var drawn = 0

        func begin(_ header: String) {
            write("\u{1B}[?25l" + header + "\n")
        }

        func draw(_ lines: [String]) {
            var frame = drawn > 0 ? "\u{1B}[\(drawn)F" : ""
            for line in lines { frame += "\u{1B}[2K" + line + "\n" }
            // Rows that vanished (fewer sensors): clear what is left of the old frame.
            if drawn > lines.count {
                frame += String(repeating: "\u{1B}[2K\n", count: drawn - lines.count) + "\u{1B}[\(drawn - lines.count)F"
            }
            drawn = lines.count
            write(frame)
        }

        /// Resets colours and shows the cursor again; safe to call twice.
        func end() {
            write("\u{1B}[0m\u{1B}[?25h")
        }

        /// A frame written whole to stdout, never through stdio's buffer.
        private func write(_ text: String) { Syscalls.writeWhole(Array(text.utf8), to: 1) }
    }
}

import ArgumentParser
import Logging
import PlumClient
import PlumCore
import PlumDaemonConfig
import PlumDisplay
import PlumScaleDaemon
import PlumSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale demo`: the whole thing with no hardware: a daemon inside this process with two
/// simulated pans and plums arriving and leaving, on a private socket, shown with `watch`.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "See PlumScale work with no hardware: two simulated pans, plums coming and going.",
        discussion: """
            Starts plumscaled inside this process on a private socket (printed at the start, so \
            other commands can use it meanwhile with --socket), shows the live view, and stops \
            everything on Ctrl-C. With --seconds N it stops by itself after N seconds; when \
            standard output is not a terminal it prints plain lines and stops after 10 seconds \
            unless --seconds says otherwise (0: until Ctrl-C).
            """)

    @Option(help: ArgumentHelp("The unit to show: g, oz, lb or ct.", valueName: "unit"))
    var unit: String = "g"

    @Option(
        help: ArgumentHelp(
            "Stop after this many seconds; 0 runs until Ctrl-C. Default: until Ctrl-C on a terminal, 10 otherwise.",
            valueName: "n"))
    var seconds: Int?

    @Flag(
        help: ArgumentHelp(
            "Show a simulated 128×64 OLED instead of the live view: what plumscale-display draws, as the chip "
                + "holds it."))
    var display = false

    func validate() throws {
        if case .failure(let refusal) = MassUnit.parse(unit) { throw ValidationError("--unit: \(refusal.description)") }
        if let seconds, seconds < 0 { throw ValidationError("--seconds: \(seconds) is negative; give 0 or more") }
    }

    /// How long the demo runs, nil for until Ctrl-C: a person at a terminal stops it; a script,
    /// a pipe or CI would otherwise wait forever.
    var duration: Int? {
        let limit = seconds ?? (Terminal.isTerminal(1) ? 0 : 10)
        return limit > 0 ? limit : nil
    }

    func run() throws {
        InterruptFlag.install()
        var template = Array("/tmp/plumscale-demo-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            printError("cannot make a private directory under /tmp: \(Errno.current)")
            throw ExitCode.failure
        }
        let directory = String(cString: made)
        let socket = directory + "/plumscale.sock"
        defer { Self.remove(directory) }

        // The daemon's own log lines would scribble over the live view; only critical ones show.
        var logger = Logger(label: "plumscaled")
        logger.logLevel = .critical
        let options = Daemon.Options(
            configuration: PlumConfiguration.simulatedPans, socketPath: socket, stateDirectory: directory,
            handlesSignals: false)
        let failure = Mutex<String?>(nil)
        let finished = Atomic<Bool>(false)
        let daemon = Task.detached {
            do { try await Daemon.run(options, logger: logger) } catch is CancellationError {} catch {
                failure.withLock { $0 = "\(error)" }
            }
            finished.store(true, ordering: .releasing)
        }
        defer {
            daemon.cancel()
            // Samplers finish their current conversion and the listener closes: well under a second.
            for _ in 0..<100 where !finished.load(ordering: .acquiring) { usleep(20_000) }
        }

        var connection: DaemonClient?
        for _ in 0..<100 where !InterruptFlag.isSet && !finished.load(ordering: .acquiring) {
            if let ready = try? DaemonClient(socketPath: socket) {
                connection = ready
                break
            }
            usleep(50_000)
        }
        guard let connection else {
            if InterruptFlag.isSet { return }
            printError(
                "the demo daemon did not start: \(failure.withLock { $0 } ?? "no socket at \(socket) after 5 s")")
            throw ExitCode.failure
        }
        let title = "plumscale demo · two simulated pans, plums coming and going · socket \(socket) · Ctrl-C to quit"
        if let duration {
            // The time limit ends the demo exactly as Ctrl-C does: the alarm raises SIGINT.
            signal(SIGALRM) { _ in _ = kill(getpid(), SIGINT) }
            alarm(UInt32(duration))
        }
        if display {
            Self.showDisplay(socket: socket, title: title)
        } else {
            var session = WatchSession(
                connection: connection, unit: (try? MassUnit.parse(unit).get()) ?? .gram, title: title)
            try session.run(sensors: [])
        }
        print("demo stopped.")
    }

    /// The simulated OLED's frames in block characters, two pixel rows a line: redrawn in place
    /// on a terminal, else one frame a second as plain lines.
    static func showDisplay(socket: String, title: String) {
        let terminal = Terminal.isTerminal(1)
        print(terminal ? "\u{1B}[2J\u{1B}[H" + title : title)
        let lastPrinted = Mutex<ContinuousClock.Instant?>(nil)
        DisplayDemo.run(
            socket: socket, height: 64,
            show: { frame in
                let border = "+" + String(repeating: "-", count: frame.width) + "+\n"
                let picture = border + frame.blockText.split(separator: "\n").map { "|\($0)|\n" }.joined() + border
                if terminal {
                    print("\u{1B}[2;1H" + picture, terminator: "")
                } else {
                    let now = ContinuousClock.now
                    let due = lastPrinted.withLock { last in
                        guard last.map({ now - $0 >= .seconds(1) }) ?? true else { return false }
                        last = now
                        return true
                    }
                    if due { print(picture, terminator: "") }
                }
                fflush(nil)
            },
            stop: { InterruptFlag.isSet })
    }

    /// Removes the private directory and what the daemon left in it (socket, calibrations).
    static func remove(_ directory: String) {
        if let stream = opendir(directory) {
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(directory + "/" + name) }
            }
            closedir(stream)
        }
        rmdir(directory)
    }
}

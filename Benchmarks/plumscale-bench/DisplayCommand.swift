import ArgumentParser
import PlumBench

#if canImport(Glibc)
    import Glibc
#endif

/// 8. The local display: the real plumscale-display beside the real plumscaled, on a simulated
/// SSD1306 (the driver and the chip model, every byte counted), with plums coming and going
/// and at rest.
struct DisplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display",
        abstract: "plumscale-display's bytes per refresh, report-to-panel time and CPU, moving and at rest.",
        discussion: """
            Starts plumscaled with two simulated pans at 80 SPS and plumscale-display on a simulated \
            128×64 SSD1306, both built beside this program, and reads the display's own account at \
            its stop (refreshes, bytes, each report's wait until the panel showed it) and its CPU \
            time from the kernel. The bus time assumes I2C at 400 kHz: 9 clocks a byte, and 20 \
            more a transfer (start, address, stop).
            """)

    @Option(help: "Seconds for each of the two runs (plums moving, then fixed loads at rest).")
    var seconds: Double = 30

    /// A full 128 × 64 frame: 8 pages of 128 bytes in 32-byte transfers, each with its control
    /// byte, and each page's 3 address commands in one transfer with theirs.
    static let fullFrameBytes = 8 * (128 + 4 + 4)
    static let fullFrameTransfers = 8 * (4 + 1)

    struct Run {
        var name: String
        var summary: DisplaySummary
        var cpuPercent: Double
        /// Seconds from the display's start to its stop: the refreshes' span.
        var lifetime: Double
    }

    func run() throws {
        let moving = try measure(name: "plums coming and going", loads: nil)
        let resting = try measure(name: "at rest (fixed loads)", loads: [87.3, 34.9])
        print("\nThe display: plumscale-display on a simulated SSD1306 128×64, plumscaled with 2 pans at 80 SPS\n")
        var rows: [[String]] = []
        for run in [moving, resting] {
            let s = run.summary
            let perRefresh = s.refreshes > 0 ? Double(s.bytes) / Double(s.refreshes) : 0
            rows.append([
                run.name, "\(s.refreshes)", fixed(Double(s.refreshes) / run.lifetime, 1),
                fixed(perRefresh, 0) + " B", "\(Self.fullFrameBytes) B",
                s.median.map { fixed($0, 1) + " ms" } ?? "–", s.worst.map { fixed($0, 1) + " ms" } ?? "–",
                fixed(run.cpuPercent, 2) + " %"
            ])
        }
        print(
            TextTable.render(
                header: [
                    "workload", "refreshes", "per s", "bytes a refresh", "a full frame", "report→panel median",
                    "at most", "CPU of one core"
                ],
                rows: rows))
        // A refresh's bus time at 400 kHz: what bounds the refresh rate on real hardware.
        let perRefresh =
            moving.summary.refreshes > 0 ? Double(moving.summary.bytes) / Double(moving.summary.refreshes) : 0
        let changedSeconds = (perRefresh * 9 + 20 * (perRefresh / 20).rounded(.up)) / 400_000
        let fullSeconds = Double(Self.fullFrameBytes * 9 + 20 * Self.fullFrameTransfers) / 400_000
        print(
            "\nAt 400 kHz a full frame takes \(fixed(fullSeconds * 1000, 1)) ms (\(fixed(1 / fullSeconds, 0)) refreshes/s "
                + "at most); the mean changed refresh \(fixed(changedSeconds * 1000, 2)) ms.")
        print(
            "display: \(fixed(perRefresh, 0)) bytes a refresh moving (a full frame \(Self.fullFrameBytes)), "
                + "report to panel at most \(moving.summary.worst.map { fixed($0, 1) } ?? "nan") ms, "
                + "\(fixed(resting.cpuPercent, 2)) % of a core at rest")
    }

    /// Runs plumscaled and plumscale-display for ``seconds``; `loads` nil is plums coming and going.
    func measure(name: String, loads: [Double]?) throws -> Run {
        var toml = ""
        for (index, pan) in ["left", "right"].enumerated() {
            toml += "[[sensor]]\nname = \"\(pan)\"\nkind = \"simulated-hx711\"\nrate = 80\nseed = \(index + 1)\n"
            if let loads { toml += "load_grams = \(loads[index])\n" }
            toml += "\n"
        }
        let daemon = try DaemonUnderTest(configuration: toml)
        defer { daemon.stop() }
        let config = daemon.directory + "/display.toml"
        try DaemonUnderTest.write(
            config,
            "[display]\nkind = \"simulated-ssd1306\"\nframe_file = \"\(daemon.directory)/display.pbm\"\n")
        let log = daemon.directory + "/display.log"
        let started = Clock.now()
        let display = try Self.spawn(
            [Self.displayBinary, "--config", config, "--socket", daemon.socket], output: log)
        // Settle first: the connection, the first frames and, at rest, the filters.
        usleep(3_000_000)
        let before = ProcessStats(pid: display).preciseCPUSeconds
        usleep(UInt32(seconds * 1_000_000))
        let used = ProcessStats(pid: display).preciseCPUSeconds - before
        ProcessStats(pid: display).terminate()
        let lifetime = Clock.now() - started
        let text = DaemonUnderTest.read(log) ?? ""
        guard let summary = DisplaySummary(log: text) else {
            throw BenchError("plumscale-display printed no summary at its stop; its log:\n\(text)")
        }
        return Run(name: name, summary: summary, cpuPercent: used / seconds * 100, lifetime: lifetime)
    }

    static var displayBinary: String {
        DaemonUnderTest.selfPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/") + "/plumscale-display"
    }

    static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        guard access(arguments[0], X_OK) == 0 else {
            throw BenchError("no \(arguments[0]); build it first: swift build -c release")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, nil, argv, environ)
        guard status == 0 else { throw BenchError("starting \(arguments[0]): \(String(cString: strerror(status)))") }
        return child
    }
}

/// The line plumscale-display logs when it stops: "stopped: 812 refreshes, 41230 bytes (50 a
/// refresh), report to panel 3.1 ms median, 48.7 ms at most".
struct DisplaySummary {
    var refreshes: Int
    var bytes: Int
    var median: Double?
    var worst: Double?

    init?(log: String) {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("stopped: ") }) else { return nil }
        let words = line.split(separator: " ")
        func number(before word: String) -> Double? {
            guard let index = words.firstIndex(where: { $0.hasPrefix(word) }), index > 0 else { return nil }
            return Double(words[index - 1].trimmingCharacters(in: ",("))
        }
        guard let refreshes = number(before: "refreshes"), let bytes = number(before: "bytes") else { return nil }
        self.refreshes = Int(refreshes)
        self.bytes = Int(bytes)
        if let range = line.range(of: "report to panel ") {
            let rest = line[range.upperBound...].split(separator: " ")
            median = rest.first.flatMap { Double($0) }
            worst = rest.count > 3 ? Double(rest[3]) : nil
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

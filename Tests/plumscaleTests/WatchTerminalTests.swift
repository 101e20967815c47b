import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale watch` and `demo` in a pseudo-terminal, as a person sees them.
@Suite("plumscale watch and demo in a terminal", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct WatchTerminalTests {
    /// What a command wrote to the terminal and how it ended, from Tests/cli/pty_run.py.
    struct TerminalRun {
        var output: String
        var status: Int?
    }

    static let ptyRun: String = {
        let file = #filePath
        let tests = file.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        return tests + "/cli/pty_run.py"
    }()

    /// Runs `plumscale arguments` in a pseudo-terminal `columns` wide for `seconds`, then Ctrl-C;
    /// with PTY_UNTIL in `environment`, Ctrl-C comes as soon as that text shows (see pty_run.py).
    static func inTerminal(
        _ arguments: [String], seconds: Double = 3, columns: Int = 110, environment: [String: String]
    ) async throws -> TerminalRun {
        let run = try await ChildProcess.run(
            "python3", [ptyRun, "\(seconds)", "\(columns)", "--", BuiltProducts.plumscale] + arguments,
            environment: environment)
        try #require(run.status == 0, "pty_run.py failed: \(run.stderr)")
        let output = try #require(jsonString(run.stdout, "output"), "no output in \(run.stdout.prefix(300))")
        return TerminalRun(output: output, status: jsonNumber(run.stdout, "status").map { Int($0) })
    }

    @Test(
        "watch draws a hue-coloured bar per pan, the heaviest in yellow, 100%+ past full scale, and restores the terminal on Ctrl-C"
    )
    func watchInTerminal() async throws {
        let scale = try await ScaleFixture.start([("big", 420), ("plum", 95), ("grape", 6)])
        let run = try await Self.inTerminal(
            ["watch"],
            environment: [
                "PLUMSCALE_SOCKET": scale.socket, "TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": ""
            ])
        #expect(run.status == 0, "exit status \(String(describing: run.status))")
        let text = run.output
        let seen = text.suffix(400).debugDescription
        #expect(text.hasPrefix("\u{1B}[?25l"), "the cursor is hidden while drawing; it showed \(seen)")
        #expect(text.contains("█"), "bars are drawn; it showed \(seen)")
        #expect(text.utf8Contains("\u{1B}[38;2;"), "bars carry the 24-bit ForceSketch hue; it showed \(seen)")
        #expect(text.contains("100%+"), "the overloaded pan shows 100%+, not a number; it showed \(seen)")
        #expect(
            text.utf8Contains("\u{1B}[1;33mbig"),
            "the heaviest pan (here the overloaded one) is highlighted in yellow; it showed \(seen)")
        #expect(!text.utf8Contains("\u{1B}[1;33mgrape"), "a lighter pan is not; it showed \(seen)")
        #expect(text.contains("◀ heaviest"), "the heaviest pan is marked; it showed \(seen)")
        #expect(text.contains("\u{1B}[3F"), "later frames redraw in place over the three rows; it showed \(seen)")
        #expect(
            text.hasSuffix("\u{1B}[0m\u{1B}[?25h"),
            Comment(
                rawValue: "colours reset and the cursor shown again at the end: \(text.suffix(40).debugDescription); "
                    + "it showed \(seen)")
        )
        let frames = text.split(separator: "\u{1B}[3F", omittingEmptySubsequences: false).count - 1
        // How often it redraws is for a benchmark on a quiet machine; here, that it redraws in place.
        #expect(frames >= 2, "frames after the first redraw in place, not \(frames)")
    }

    @Test("when the load reaches full force, watch shows the cue marker beside 100%+")
    func maxForceCue() async throws {
        let scale = try await ScaleFixture.start([("pan", nil)])
        // The load goes on once watch shows the first reading, and watch is stopped once the cue
        // marker shows: the test waits for what a person would see, not for a time.
        let run = try await Self.inTerminal(
            ["watch"], seconds: 60,
            environment: [
                "PLUMSCALE_SOCKET": scale.socket, "TERM": "xterm", "NO_COLOR": "1",
                "PTY_WHEN": " %", "PTY_WRITE_FILE": "\(scale.directory)/pan.grams", "PTY_WRITE_TEXT": "400\n",
                "PTY_UNTIL": "♪ MAX"
            ])
        let seen = run.output.suffix(600).debugDescription
        #expect(
            run.status == 0,
            "watch should end on Ctrl-C with 0, not \(String(describing: run.status)); it showed \(seen)")
        #expect(run.output.contains("100%+"), "400 g on a 385 g pan shows 100%+; it showed \(seen)")
        #expect(run.output.contains("♪ MAX"), "the max-force cue is shown; it showed \(seen)")
    }

    @Test("watch without colour support draws the same view with no colour escapes")
    func watchPlainTerminal() async throws {
        let scale = try await ScaleFixture.start([("left", 95)])
        let run = try await Self.inTerminal(
            ["watch"], seconds: 60,
            environment: [
                "PLUMSCALE_SOCKET": scale.socket, "TERM": "xterm", "NO_COLOR": "1", "PTY_UNTIL": " %"
            ])
        let seen = run.output.suffix(400).debugDescription
        #expect(run.status == 0, "exit status \(String(describing: run.status)); it showed \(seen)")
        #expect(run.output.contains("█") && run.output.contains(" g"), "a bar and a weight; it showed \(seen)")
        #expect(!run.output.utf8Contains("\u{1B}[38;"), "no colour with NO_COLOR; it showed \(seen)")
    }

    @Test("watch says the daemon went away, restores the terminal and exits with code 6")
    func daemonGoesAway() async throws {
        let scale = try await ScaleFixture.start([("left", 95)])
        // The daemon is stopped once watch shows a reading.
        let run = try await Self.inTerminal(
            ["watch"], seconds: 60,
            environment: [
                "PLUMSCALE_SOCKET": scale.socket, "TERM": "xterm-256color", "PTY_WHEN": " %",
                "PTY_KILL_PID": "\(scale.daemon.pid)"
            ])
        #expect(run.status == 6, "exit status \(String(describing: run.status)); it showed \(run.output.suffix(300))")
        #expect(run.output.contains("lost the connection to plumscaled"), "\(run.output.suffix(300))")
        #expect(
            run.output.contains("\u{1B}[?25h"), "the cursor is shown again: \(run.output.suffix(100).debugDescription)")
    }

    @Test("watch into a pipe prints plain lines when readings change, no escapes")
    func watchIntoPipe() async throws {
        let scale = try await ScaleFixture.start([("left", 95), ("right", 30)])
        let watch = try scale.start(["watch"])
        // Plain lines come when readings change: stop once both pans have printed one.
        try await offPool {
            try watch.waitForOutput("left ", standardOutput: true)
            try watch.waitForOutput("right ", standardOutput: true)
        }
        kill(watch.pid, SIGINT)
        let run = try await offPool { watch.finish() }
        #expect(!run.stdout.contains("\u{1B}"), "no escapes into a pipe: \(run.stdout.debugDescription)")
        #expect(
            run.stdoutLines.contains { $0.hasPrefix("left") && $0.contains(" g ") && $0.contains("heaviest") },
            "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("right") }, "\(run.stdout)")
    }

    @Test("demo starts its own daemon with two pans, shows them, and stops cleanly on Ctrl-C leaving no socket behind")
    func demo() async throws {
        let run = try await Self.inTerminal(
            ["demo"], seconds: 60,
            environment: [
                "TERM": "xterm-256color", "PTY_UNTIL": " %"
            ])
        let seen = run.output.suffix(600).debugDescription
        #expect(run.status == 0, "exit status \(String(describing: run.status)); it showed \(seen)")
        #expect(run.output.contains("plumscale demo"), "the title; it showed \(seen)")
        #expect(run.output.contains("left") && run.output.contains("right") && run.output.contains(" g"), "\(seen)")
        #expect(run.output.contains("demo stopped."), "it showed \(seen)")
        let socket = try #require(
            run.output.firstRange(of: "socket ").map { range in
                String(run.output[range.upperBound...].prefix { $0 != " " })
            }, "the demo names its socket; it showed \(seen)")
        #expect(socket.hasSuffix("/plumscale.sock"), "socket \(socket)")
        #expect(access(socket, F_OK) != 0, "the private socket is gone")
    }

    @Test("demo --display draws the simulated OLED's frames in block characters, 128 wide, and stops by itself")
    func demoDisplay() async throws {
        let run = await ChildProcess.plumscale(["demo", "--display", "--seconds", "3"])
        let seen = run.stdout.suffix(1200)
        #expect(run.status == 0, "exit status \(run.status); \(run.stderr)")
        let border = "+" + String(repeating: "-", count: 128) + "+"
        let rows = run.stdoutLines.filter { $0.hasPrefix("|") && $0.hasSuffix("|") }
        #expect(run.stdoutLines.contains(border), "a panel's frame; it printed \(seen)")
        #expect(!rows.isEmpty && rows.allSatisfy { $0.count == 130 }, "rows of 128 pixels between bars: \(seen)")
        #expect(rows.contains { $0.contains("█") }, "lit pixels: \(seen)")
        #expect(run.stdout.contains("demo stopped."), "\(seen)")
    }
}

extension String {
    /// Whether the bytes of `needle` occur in this string's bytes: escape sequences are matched
    /// as bytes, not as grapheme clusters.
    func utf8Contains(_ needle: String) -> Bool {
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return pattern.isEmpty }
        return (0...(haystack.count - pattern.count)).contains { start in
            haystack[start..<start + pattern.count].elementsEqual(pattern)
        }
    }
}

/// A string field of a flat JSON object, with the usual escapes undone.
func jsonString(_ json: String, _ key: String) -> String? {
    guard
        let start = json.firstRange(of: "\"\(key)\": \"")?.upperBound
            ?? json.firstRange(of: "\"\(key)\":\"")?.upperBound
    else { return nil }
    var result = ""
    var index = start
    while index < json.endIndex {
        let character = json[index]
        if character == "\"" { return result }
        if character == "\\" {
            index = json.index(after: index)
            switch json[index] {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u":
                let hex = json[json.index(after: index)...].prefix(4)
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    result.unicodeScalars.append(scalar)
                }
                index = json.index(index, offsetBy: 4)
            default: result.append(json[index])
            }
        } else {
            result.append(character)
        }
        index = json.index(after: index)
    }
    return nil
}

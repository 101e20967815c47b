import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real programs: `plumscaled` with two simulated pans whose loads the test sets, and
/// `plumscale-display` following it through PlumClient onto a simulated HD44780, whose rows go
/// to a frame file after every refresh, exactly as the chip model holds them.
@Suite("plumscale-display with plumscaled", .serialized, .timeLimit(.minutes(3)))
struct DisplayProcessTests {
    /// `plumscale-display` on a simulated 20 × 4 LCD (or `kind`), for `scale`'s daemon.
    static func display(
        _ scale: ScaleFixture, kind: String = "simulated-hd44780", size: String = "20x4", frame: String
    ) throws -> BackgroundProcess {
        let config = try scale.daemon.directory.write(
            "display.toml",
            "[display]\nkind = \"\(kind)\"\nsize = \"\(size)\"\nframe_file = \"\(frame)\"\nalternate_seconds = 60\n")
        return try BackgroundProcess(
            BuiltProducts.plumscaleDisplay, ["--config", config, "--socket", scale.socket])
    }

    /// Waits until the panel's frame satisfies `condition`.
    static func waitForFrame(
        _ frame: String, _ what: String, display: BackgroundProcess, timeout: Duration = .seconds(30),
        _ condition: @escaping @Sendable (String) -> Bool
    ) async throws {
        try await waitFor(
            what, timeout: timeout, describe: { "frame:\n\(readFile(frame))\nstderr: \(display.stderr)" }
        ) { condition(readFile(frame)) }
    }

    @Test("a weight placed on a pan is on the panel, and the heaviest mark moves to the heavier pan")
    func weightAndHeaviest() async throws {
        let scale = try await ScaleFixture.start([("left", nil), ("right", nil)])
        let frame = scale.daemon.directory.file("lcd.txt")
        let display = try Self.display(scale, frame: frame)
        // The simulated chips weigh within a division or two of the load put on them.
        scale.place(87.3, on: "left")
        try await Self.waitForFrame(frame, "about 87.3 g on the left row, marked heaviest", display: display) {
            let rows = $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return rows.count >= 4 && rows[0].hasPrefix("▒left") && abs(panelGrams(in: rows[0]) - 87.3) <= 0.3
        }
        scale.place(150, on: "right")
        try await Self.waitForFrame(frame, "the heaviest mark on the right row, at about 150 g", display: display) {
            let rows = $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return rows.count >= 4 && rows[1].hasPrefix("▒right") && abs(panelGrams(in: rows[1]) - 150) <= 0.3
                && rows[0].hasPrefix("left")
        }
        _ = display.stop()
        #expect(readFile(frame).contains("stopped"), "a stopped display says so: \(readFile(frame))")
    }

    @Test("a daemon that stops answering shows stale, never its last weight; a stopped one 'not running'")
    func staleAndAway() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        let frame = scale.daemon.directory.file("lcd.txt")
        let display = try Self.display(scale, frame: frame)
        scale.place(42, on: "left")
        try await Self.waitForFrame(frame, "about 42 g", display: display) { abs(panelGrams(in: $0) - 42) <= 0.3 }
        // Frozen, the daemon keeps its socket but sends nothing: the panel must not go on
        // showing 42.0 g as if current.
        kill(scale.daemon.pid, SIGSTOP)
        try await Self.waitForFrame(frame, "stale instead of 42 g", display: display) {
            $0.contains("stale") && !$0.contains(" g")
        }
        kill(scale.daemon.pid, SIGCONT)
        try await Self.waitForFrame(frame, "about 42 g again", display: display) { abs(panelGrams(in: $0) - 42) <= 0.3 }
        _ = try await offPool { scale.daemon.terminate() }
        try await Self.waitForFrame(frame, "plumscaled not running", display: display) {
            $0.contains("plumscaled not") && !$0.contains(" g")
        }
        #expect(display.isRunning, "the display outlives the daemon: \(display.stderr)")
    }

    @Test("the OLED model's frame is a 128×64 PBM that changes with the weight and stays when nothing does")
    func oledFrames() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        let frame = scale.daemon.directory.file("oled.pbm")
        let display = try Self.display(scale, kind: "simulated-ssd1306", size: "128x64", frame: frame)
        scale.place(10, on: "left")
        try await Self.waitForFrame(frame, "a 128×64 PBM", display: display) { $0.hasPrefix("P1\n128 64\n") }
        try await waitFor("a stable 10 g frame") {
            let first = readFile(frame)
            try await Task.sleep(for: .milliseconds(300))
            return first == readFile(frame) && first.hasPrefix("P1\n")
        }
        let resting = readFile(frame)
        scale.place(250, on: "left")
        try await Self.waitForFrame(frame, "a different frame for 250 g", display: display) {
            $0.hasPrefix("P1\n128 64\n") && $0 != resting
        }
    }
}

/// The number before the first " g" in a panel's text (its stable mark may follow the unit).
func panelGrams(in text: String) -> Double {
    guard let end = text.firstRange(of: " g")?.lowerBound else { return .nan }
    let number = text[..<end].reversed().prefix { "-.0123456789".contains($0) }
    return Double(String(number.reversed())) ?? .nan
}

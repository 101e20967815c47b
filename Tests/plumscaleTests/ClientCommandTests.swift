import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("plumscale commands against a real plumscaled", .tags(.process), .timeLimit(.minutes(5)), .ownThreads)
struct ClientCommandTests {
    @Test("read prints one line per sensor with its weight; --json prints the daemon's WEIGHT reports")
    func read() async throws {
        let scale = try await ScaleFixture.start([("left", 120), ("right", 60)])
        let run = await scale.plumscale(["read", "--stable"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdoutLines
        try #require(lines.count == 2, "output: \(run.stdout)")
        #expect(
            lines[0].hasPrefix("left") && lines[0].contains("stable") && lines[0].contains("heaviest"), "\(lines[0])")
        #expect(abs(grams(in: lines[0]) - 120) < 0.5, "\(lines[0])")
        #expect(lines[1].hasPrefix("right") && !lines[1].contains("heaviest"), "\(lines[1])")
        #expect(abs(grams(in: lines[1]) - 60) < 0.5, "\(lines[1])")

        let json = await scale.plumscale(["read", "--sensor", "right", "--json", "--unit", "oz"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        #expect(json.stdoutLines.count == 1 && json.stdout.hasPrefix(#"{"class":"WEIGHT","sensor":"right""#))

        let ounces = await scale.plumscale(["read", "--sensor", "left", "--stable", "--unit", "oz"])
        #expect(abs(grams(in: ounces.stdout, unit: "oz") - 4.233) < 0.02, "120 g is 4.233 oz: \(ounces.stdout)")
    }

    /// The simulated cell reads within a division or so of its load, not exactly on it, so the
    /// expectations come from what the daemon displayed, computed here independently. Its
    /// model drifts and creeps as a real cell does, so the display may move by a division
    /// between two runs of `read`: each conversion is checked between two JSON reads that show
    /// the same display, which is then the one it converted.
    @Test("read --unit converts the displayed value at a 0.5 g division, not the unrounded weight")
    func unitAtCoarseDivision() async throws {
        let scale = try await ScaleFixture.start([("pan", 120.4)], scaleSettings: "division_grams = 0.5")
        let json = await scale.plumscale(["read", "--stable", "--json"])
        #expect(json.stdout.contains(#""division":0.5"#), "the daemon says its division: \(json.stdout)")
        let display = try #require(Self.display(json), "a stable WEIGHT with a display: \(json.stdout) \(json.stderr)")
        #expect(
            (display * 2).rounded() == display * 2 && abs(display - 120.4) <= 1,
            "a 0.5 g division shows whole or half grams near the 120.4 g load: \(display)")

        // A 0.5 g step is 0.018 oz, so two decimals, of the displayed grams.
        guard let (ounces, shownForOunces) = await Self.read(scale, unit: "oz") else { return }
        let wantOunces = String(format: " %.2f oz ", shownForOunces / 28.349523125)
        #expect(ounces.contains(wantOunces), "\(shownForOunces) g is\(wantOunces): \(ounces)")
        // A 0.5 g step is 2.5 ct, so whole carats, a half rounded away from zero.
        guard let (carats, shownForCarats) = await Self.read(scale, unit: "ct") else { return }
        let wantCarats = " \(Int((shownForCarats * 5).rounded(.toNearestOrAwayFromZero))) ct "
        #expect(carats.contains(wantCarats), "\(shownForCarats) g is\(wantCarats): \(carats)")
    }

    /// The displayed grams of a `read --json`'s WEIGHT report.
    private static func display(_ run: ChildProcess) -> Double? {
        run.stdout.firstMatch(of: /"display":"(-?[0-9.]+) g"/).flatMap { Double(String($0.1)) }
    }

    /// `read --stable --unit unit`, with the display in grams it converted: the one shown by a
    /// JSON read just before and just after, tried until the two agree.
    private static func read(_ scale: ScaleFixture, unit: String) async -> (output: String, grams: Double)? {
        var seen: [String] = []
        for _ in 0..<5 {
            let before = await scale.plumscale(["read", "--stable", "--json"])
            let converted = await scale.plumscale(["read", "--stable", "--unit", unit])
            let after = await scale.plumscale(["read", "--stable", "--json"])
            if let shown = display(before), shown == display(after) {
                return (converted.stdout + converted.stderr, shown)
            }
            seen.append("\(before.stdout) then \(after.stdout)")
        }
        Issue.record("the display never held still across three reads, five times: \(seen)")
        return nil
    }

    @Test("tare takes the bowl's weight, after which the pan reads net zero with the tare shown")
    func tare() async throws {
        let scale = try await ScaleFixture.start([("bowl", 150)])
        let run = await scale.plumscale(["tare"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.hasPrefix("bowl: tare 1") && run.stdout.contains(" g; showing net weight"), "\(run.stdout)")
        let read = await scale.plumscale(["read", "--stable"])
        #expect(abs(grams(in: read.stdout)) <= 0.1 && read.stdout.contains("tare 1"), "\(read.stdout)")
    }

    @Test("zero of a loaded pan is refused in plain words that say to tare, with exit code 2")
    func zeroRefused() async throws {
        let scale = try await ScaleFixture.start([("left", 42)])
        let run = await scale.plumscale(["zero", "--sensor", "left"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("left: zero refused: load is 4"), "\(run.stderr)")
        #expect(run.stderr.contains(" g, outside the ±7.7 g zero range — use tare"), "\(run.stderr)")
    }

    @Test(
        "a scripted calibration takes each point once its weight is placed, saves the fit, and the pan then weighs with it"
    )
    func scriptedCalibration() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        // Each weight goes on once the command says it waits for it: the empty pan must not be
        // recorded as 100 g.
        let run = try await scale.run(
            ["calibrate", "--sensor", "left", "--point", "0", "--point", "100", "--point", "250", "--yes"],
            placing: [("left: place 100.0 g; waiting", 100), ("left: place 250.0 g; waiting", 250)], on: "left")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(
            run.stdout.contains("100.0 g") && run.stdout.contains("250.0 g") && run.stdout.contains("residual"),
            "\(run.stdout)")
        #expect(run.stdout.contains("calibration saved to \(scale.directory)/state/"), "\(run.stdout)")
        let read = await scale.plumscale(["read", "--stable"])
        #expect(abs(grams(in: read.stdout) - 250) <= 0.2, "known weights are what it now reads: \(read.stdout)")
        let status = await scale.plumscale(["status"])
        #expect(status.stdout.contains("calibrated   20"), "the calibration's date is shown: \(status.stdout)")
    }

    @Test(
        "the interactive wizard asks for the empty pan and each weight, shows the fit with residuals, and saves on yes")
    func interactiveWizard() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        // Enter (the pan is empty), 200 (the weight), Enter (no more weights), y (save).
        let run = try await scale.run(
            ["calibrate", "--sensor", "left"], input: "\n200\n\ny\n",
            placing: [("Waiting for 200.0 g to settle", 200)], on: "left")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        for prompt in [
            "Remove everything from the pan", "Place a known weight", "The fit:", "residual",
            "Save and use this calibration?"
        ] {
            #expect(run.stderr.contains(prompt), "no '\(prompt)' in: \(run.stderr)")
        }
        #expect(run.stderr.contains("nothing checks this fit"), "zero and one weight, unchecked: \(run.stderr)")
        #expect(run.stdout.contains("calibration saved to"), "\(run.stdout)")
    }

    @Test("a weight typed at the save prompt of an unchecked fit is captured as a third point and checks the fit")
    func wizardThirdPoint() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        // Enter (empty pan), 100, Enter (fit: not checked), 300 (a third point), y (save the checked fit).
        let run = try await scale.run(
            ["calibrate", "--sensor", "left"], input: "\n100\n\n300\ny\n",
            placing: [("Waiting for 100.0 g to settle", 100), ("Waiting for 300.0 g to settle", 300)], on: "left")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let fits = run.stderr.components(separatedBy: "3. The fit:")
        #expect(fits.count == 3, "fitted twice: \(run.stderr)")
        #expect(fits.first { $0.contains("quality: not checked") } != nil, "\(run.stderr)")
        #expect(fits.last?.contains("300.0 g") == true && fits.last?.contains("not checked") == false, "\(run.stderr)")
        #expect(run.stdout.contains("calibration saved to"), "\(run.stdout)")
    }

    @Test("when the wizard's fit is refused it keeps the points and asks for another weight")
    func wizardAsksForMoreAfterRefusal() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        // Enter (empty pan), 10 g, Enter (fit: span too small), 200 g, Enter (fit), y.
        let run = try await scale.run(
            ["calibrate", "--sensor", "left"], input: "\n10\n\n200\n\ny\n",
            placing: [("Waiting for 10.0 g to settle", 10), ("Waiting for 200.0 g to settle", 200)], on: "left")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("under 20 % of capacity"), "the refusal says why: \(run.stderr)")
        #expect(run.stderr.contains("Add another known weight"), "\(run.stderr)")
        #expect(run.stdout.contains("calibration saved to"), "\(run.stdout)")
    }

    @Test("a calibration whose points are too close is refused with the engine's reason and nothing is saved")
    func degenerateCalibration() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        let run = try await scale.run(
            ["calibrate", "--sensor", "left", "--point", "0", "--point", "10", "--yes"],
            placing: [("left: place 10.0 g; waiting", 10)], on: "left")
        #expect(run.status == 2, "stdout: \(run.stdout)")
        #expect(run.stderr.contains("calibration refused") && run.stderr.contains("nothing saved"), "\(run.stderr)")
        #expect(access("\(scale.directory)/state/left-gain128.json", F_OK) != 0)
    }

    @Test("--rollback restores the previous saved calibration, once per earlier one, and says so when there is none")
    func rollback() async throws {
        let scale = try await ScaleFixture.start([("left", nil)])
        func calibrate(to grams: Double) async throws -> ChildProcess {
            scale.place(0, on: "left")
            return try await scale.run(
                ["calibrate", "--sensor", "left", "--point", "0", "--point", "\(grams)", "--yes"],
                placing: [("left: place \(grams) g; waiting", grams)], on: "left")
        }
        let first = try await calibrate(to: 100)
        #expect(first.status == 0, "\(first.stderr)")
        let none = await scale.plumscale(["calibrate", "--sensor", "left", "--rollback"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("no earlier calibration"), "\(none.stderr)")

        let second = try await calibrate(to: 200)
        #expect(second.status == 0, "\(second.stderr)")
        let back = await scale.plumscale(["calibrate", "--sensor", "left", "--rollback"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("is in use again"), "\(back.stdout)")
        #expect(
            await scale.plumscale(["calibrate", "--sensor", "left", "--rollback"]).status == 2,
            "the one earlier calibration is used up")
    }

    @Test("status names the daemon and each sensor's state, rate and calibration")
    func status() async throws {
        let scale = try await ScaleFixture.start([("left", 0), ("right", 0)])
        let run = await scale.plumscale(["status"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.hasPrefix("plumscaled 0.1.0 at \(scale.socket)"))
        for expected in ["left (simulated-hx711): ok", "right (simulated-hx711):", "samples/s", "calibrated"] {
            #expect(run.stdout.contains(expected), "no '\(expected)' in: \(run.stdout)")
        }
        #expect(
            await scale.plumscale(["devices"]).stdout.replacingRates == run.stdout.replacingRates, "devices is status")
    }

    @Test("an unknown sensor is refused with the list of sensors there are, exit code 7")
    func unknownSensor() async throws {
        let scale = try await ScaleFixture.start([("left", 0), ("right", 0)])
        for command in [["read"], ["tare"], ["zero"], ["watch"], ["calibrate", "--point", "0", "--point", "100"]] {
            let run = await scale.plumscale(command + ["--sensor", "middle"])
            #expect(run.status == 7, "\(command): \(run.stderr)")
            #expect(
                run.stderr.contains(#"no sensor named "middle"; this daemon has: left, right"#),
                "\(command): \(run.stderr)")
        }
    }

    @Test("with no daemon the error names the socket and how to start one, exit code 6")
    func noDaemon() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcli")
        let path = directory.file("plumscale.sock")
        let run = await ChildProcess.plumscale(["read", "--socket", path])
        #expect(run.status == 6)
        #expect(run.stderr.contains("plumscaled is not running at \(path)"))
        #expect(
            run.stderr.contains("systemctl start plumscaled.socket") && run.stderr.contains("plumscaled --simulate"))
    }
}

extension String {
    /// Status output with the lines removed that change between two calls: the rates, the
    /// uptime and the free space.
    var replacingRates: String {
        split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains("samples/s") && !$0.contains("discarded") && !$0.hasPrefix("  up ")
                && !$0.hasPrefix("  state ")
        }.joined(separator: "\n")
    }
}

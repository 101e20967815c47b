import PlumTestSupport
import PlumTestThreads
import Testing

/// Pulls a number out of a flat JSON line such as {"raw":-12,...}: enough for these checks
/// without a JSON library in the test target.
func jsonNumber(_ line: String, _ key: String) -> Double? {
    guard let range = line.firstRange(of: "\"\(key)\":") else { return nil }
    let rest = line[range.upperBound...].prefix { "-+.0123456789e".contains($0) }
    return Double(rest)
}

@Suite("plumscale raw, as a child process", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct RawCommandTests {
    @Test("--simulate --json prints N samples with conversion-instant edge times, then a summary")
    func simulatedJSON() async throws {
        let run = await ChildProcess.plumscale(["raw", "--simulate", "--samples", "40", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdoutLines
        try #require(lines.count == 41, "output: \(run.stdout)")
        let samples = lines.dropLast()
        #expect(samples.allSatisfy { $0.hasPrefix("{\"sensor\":\"sim\"") && $0.contains("\"raw\":") }, "\(samples)")
        // The model converts at exactly 80 SPS, so between two samples with no conversion
        // discarded in between, the edge times are a whole number of 12.5 ms periods apart.
        // (A busy machine can stretch a clock pulse: the driver then resets the chip, which
        // starts a new conversion grid, and the later sample says what it discarded.)
        var checked = 0
        for (earlier, later) in zip(samples, samples.dropFirst()) where !later.contains("\"discarded\"") {
            guard let first = jsonNumber(earlier, "edge_time"), let second = jsonNumber(later, "edge_time") else {
                continue
            }
            let periods = (second - first) / 0.0125
            #expect(periods >= 0.999 && abs(periods - periods.rounded()) < 0.01, "gap \(second - first) s")
            checked += 1
        }
        #expect(checked > 0, "no two consecutive samples carried edge times")
        let summary = try #require(lines.last, "no output")
        #expect(summary.hasPrefix("{\"summary\":"), "the last line: \(summary)")
        #expect(jsonNumber(summary, "samples") == 40)
        #expect(jsonNumber(summary, "nominal_rate") == 80)
        #expect(summary.contains("\"stretched_clock\":"), "the summary: \(summary)")
    }

    @Test("text output ends with the rate achieved and the discards")
    func simulatedText() async throws {
        let run = await ChildProcess.plumscale(["raw", "--simulate", "--samples", "5"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("5 samples in"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stdout.contains("SPS achieved (80 nominal)"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stdout.contains("discarded:"), "stdout: \(run.stdout) stderr: \(run.stderr)")
    }

    @Test("a replayed trace comes out code for code")
    func replayThroughCLI() async throws {
        let temporary = try TemporaryDirectory(prefix: "plumraw")
        let directory = temporary.path
        writeFile("\(directory)/trace.csv", "time_s,sensor,raw\n1.0,pan,-5\n1.1,other,9\n1.2,pan,8388607\n1.3,pan,42\n")
        writeFile(
            "\(directory)/plumscale.toml",
            """
            [[sensor]]
            name = "pan"
            kind = "replay"
            path = "\(directory)/trace.csv"
            pace = "fast"
            """)
        let run = await ChildProcess.plumscale([
            "raw", "--config", "\(directory)/plumscale.toml", "--samples", "3", "--json"
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let raws = run.stdoutLines.dropLast().compactMap { jsonNumber($0, "raw") }
        #expect(raws == [-5, 8_388_607, 42], "the trace's pan samples, in order")
    }

    @Test("--record writes a trace that replays the same codes")
    func recordThenReplay() async throws {
        let temporary = try TemporaryDirectory(prefix: "plumraw")
        let directory = temporary.path
        let first = await ChildProcess.plumscale([
            "raw", "--simulate", "--samples", "8", "--json", "--record", "\(directory)/t.csv"
        ])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        writeFile(
            "\(directory)/replay.toml",
            """
            [[sensor]]
            name = "again"
            kind = "replay"
            path = "\(directory)/t.csv"
            trace_sensor = "sim"
            pace = "fast"
            """)
        let second = await ChildProcess.plumscale([
            "raw", "--config", "\(directory)/replay.toml", "--samples", "8", "--json"
        ])
        #expect(second.status == 0, "stderr: \(second.stderr)")
        let original = first.stdoutLines.dropLast().compactMap { jsonNumber($0, "raw") }
        let replayed = second.stdoutLines.dropLast().compactMap { jsonNumber($0, "raw") }
        #expect(original.count == 8, "recorded \(original)")
        #expect(replayed == original, "the replay gives back the recording")
    }

    @Test("no sensor named: usage error that suggests --simulate")
    func noSource() async throws {
        let run = await ChildProcess.plumscale(["raw"])
        #expect(run.status == 64, "EX_USAGE expected; stderr: \(run.stderr)")
        #expect(run.stderr.contains("--simulate"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("--config"), "stdout: \(run.stdout) stderr: \(run.stderr)")
    }

    @Test("a bad configuration exits 1 naming file, line and key")
    func badConfiguration() async throws {
        let temporary = try TemporaryDirectory(prefix: "plumraw")
        let directory = temporary.path
        writeFile(
            "\(directory)/bad.toml",
            "[[sensor]]\nname = \"pan\"\nkind = \"hx711\"\nchip = \"gpiochip0\"\ndout = 5\nsck = 6\ngain = 100\n")
        let run = await ChildProcess.plumscale(["raw", "--config", "\(directory)/bad.toml"])
        #expect(run.status == 1, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(
            run.stderr.contains("\(directory)/bad.toml:7: sensor \"pan\".gain"),
            "stdout: \(run.stdout) stderr: \(run.stderr)")
    }

    @Test("an unknown sensor exits 1 listing the sensors there are")
    func unknownSensor() async throws {
        let run = await ChildProcess.plumscale(["raw", "--simulate", "--sensor", "middle"])
        #expect(run.status == 1, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("no sensor named \"middle\""), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("\"sim\""), "stdout: \(run.stdout) stderr: \(run.stderr)")
    }

    @Test("an HX711 on a chip that does not exist exits 3 and says which chip")
    func missingChip() async throws {
        let temporary = try TemporaryDirectory(prefix: "plumraw")
        let directory = temporary.path
        writeFile(
            "\(directory)/pan.toml",
            "[[sensor]]\nname = \"pan\"\nkind = \"hx711\"\nchip = \"/dev/gpiochip-none\"\ndout = 5\nsck = 6\n")
        let run = await ChildProcess.plumscale(["raw", "--config", "\(directory)/pan.toml"])
        #expect(run.status == 3, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("/dev/gpiochip-none"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("no such device"), "stdout: \(run.stdout) stderr: \(run.stderr)")
    }

    @Test("an ADS1115 on a bus that does not exist exits 3 and says how to enable I2C")
    func missingBus() async throws {
        let temporary = try TemporaryDirectory(prefix: "plumraw")
        let directory = temporary.path
        writeFile("\(directory)/fsr.toml", "[[sensor]]\nname = \"fsr\"\nkind = \"ads1115\"\nbus = 97\n")
        let run = await ChildProcess.plumscale(["raw", "--config", "\(directory)/fsr.toml"])
        #expect(run.status == 3, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stderr.contains("i2c-97"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(
            run.stderr.contains("dtparam=i2c_arm=on") || run.stderr.contains("raspi-config"),
            "stdout: \(run.stdout) stderr: \(run.stderr)")
    }
}

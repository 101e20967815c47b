import PlumDaemonConfig
import PlumTestSupport
import PlumTestThreads
import Testing

@testable import PlumScaleDaemon

@Suite("plumscaled's command line", .ownThreads)
struct DaemonCommandLineTests {
    private func parse(_ arguments: String...) throws(DaemonCommandLine.UsageError) -> DaemonCommandLine.Request {
        try DaemonCommandLine.parse(arguments)
    }

    private func refusal(_ arguments: String...) -> String? {
        do {
            _ = try DaemonCommandLine.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("no options run the configured sensors from the default configuration file")
    func defaults() throws {
        guard case .run(let line) = try parse() else {
            Issue.record("no options should run the daemon")
            return
        }
        #expect(line.config == PlumConfiguration.defaultPath)
        #expect(!line.simulate && line.socket == nil && line.stateDirectory == nil && !line.verbose)
    }

    @Test("every option is read, with its value after a space or after '='")
    func everyOption() throws {
        var expected = DaemonCommandLine()
        expected.config = "/etc/x.toml"
        expected.simulate = true
        expected.socket = "/run/p.sock"
        expected.stateDirectory = "/var/lib/p"
        expected.verbose = true
        #expect(
            try parse(
                "--config", "/etc/x.toml", "--simulate", "--socket", "/run/p.sock", "--state-directory", "/var/lib/p",
                "--verbose")
                == .run(expected))
        #expect(
            try parse(
                "--config=/etc/x.toml", "--simulate", "--socket=/run/p.sock", "--state-directory=/var/lib/p", "-v")
                == .run(expected))
    }

    @Test("a value that starts with a single dash is taken as the value")
    func dashValue() throws {
        var expected = DaemonCommandLine()
        expected.socket = "-odd-name"
        #expect(try parse("--socket", "-odd-name") == .run(expected))
    }

    @Test("-h and --help ask for the help, wherever they stand")
    func help() throws {
        #expect(try parse("-h") == .help)
        #expect(try parse("--simulate", "--help") == .help)
    }

    @Test("a bad command line is refused with what was wrong")
    func refusals() {
        #expect(refusal("--bogus") == "unknown option '--bogus'")
        #expect(refusal("--config") == "option --config needs a value: --config <file>")
        #expect(refusal("--socket", "--simulate") == "option --socket needs a value: --socket <path>")
        #expect(refusal("--state-directory=") == "option --state-directory needs a value after '='")
        #expect(refusal("--simulate=yes") == "option --simulate takes no value")
        #expect(refusal("--verbose=2") == "option --verbose takes no value")
        #expect(refusal("extra") == "unexpected argument 'extra': plumscaled takes options only")
        #expect(refusal("-") == "unexpected argument '-': plumscaled takes options only")
    }

    @Test("the refusal says what was wrong, then how the command line goes")
    func refusalText() {
        let error = DaemonCommandLine.UsageError(message: "unknown option '--x'")
        #expect(error.description.hasPrefix("plumscaled: unknown option '--x'\nUsage: plumscaled [--config <file>]"))
    }

    @Test("the real plumscaled exits 64 on a bad option, naming it, and 0 on --help with every option listed")
    func realProgram() async throws {
        let bad = try await ChildProcess.run(BuiltProducts.plumscaled, ["--config", "/dev/null", "--bogus"])
        #expect(bad.status == 64, "EX_USAGE expected; stderr: \(bad.stderr)")
        #expect(bad.stderr.contains("unknown option '--bogus'"), "stderr: \(bad.stderr)")
        #expect(bad.stderr.contains("Usage: plumscaled"), "stderr: \(bad.stderr)")
        #expect(bad.stdout.isEmpty, "stdout: \(bad.stdout)")

        let help = try await ChildProcess.run(BuiltProducts.plumscaled, ["--help"])
        #expect(help.status == 0, "stderr: \(help.stderr)")
        for option in [
            "--config <file>", "--simulate", "--socket <path>", "--state-directory <dir>", "-v, --verbose", "-h, --help"
        ] {
            #expect(help.stdout.contains("\n  \(option)  "), "help lacks \(option): \(help.stdout)")
        }
        #expect(help.stdout.contains("USAGE: plumscaled"), "stdout: \(help.stdout)")
    }
}

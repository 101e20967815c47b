import Foundation
import PlumTestSupport
import PlumTestThreads
import PlumWeb
import Testing

@Suite("plumscale-web hash-password", .timeLimit(.minutes(5)), .ownThreads)
struct HashPasswordTests {
    static let program = BuiltProducts.folder + "/plumscale-web"

    @Test("a password under 10 characters or a cost under 10 is refused, saying what to do")
    func refusals() async throws {
        let short = try await ChildProcess.run(Self.program, ["hash-password", "--cost", "10"], input: "plum1234\n")
        #expect(short.status != 0 && short.stdout.isEmpty, "no hash for a short password")
        #expect(short.stderr.contains("at least 10"), "\(short.stderr)")
        let cheap = try await ChildProcess.run(
            Self.program, ["hash-password", "--cost", "4"], input: "long enough password\n")
        #expect(cheap.status != 0 && cheap.stdout.isEmpty, "no hash at cost 4")
        #expect(cheap.stderr.contains("--cost must be 10 to 31"), "\(cheap.stderr)")
    }

    @Test("a good password gives one line that verifies against it")
    func hash() async throws {
        let result = try await ChildProcess.run(
            Self.program, ["hash-password", "--cost", "10"], input: "long enough password\n")
        #expect(result.status == 0, "\(result.stderr)")
        let directory = try TemporaryDirectory(prefix: "plumhash")
        try directory.write("web-password", result.stdout)
        let file = PasswordFile(path: directory.file("web-password"))
        #expect(try file.verify("long enough password") && !(try file.verify("long enough passwor")))
        #expect(try file.hash().hasPrefix("$2b$10$"), "the cost asked for")
    }
}

/// `hash-password` in a pseudo-terminal, typed as a person types (Tests/cli/pty_type.py): what
/// the terminal shows must never include the password.
@Suite("plumscale-web hash-password on a terminal", .timeLimit(.minutes(1)))
struct HashPasswordTerminalTests {
    static let ptyType: String = {
        let tests = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
        return tests.joined(separator: "/") + "/cli/pty_type.py"
    }()

    /// Runs `hash-password arguments` in a terminal, typing each answer once its prompt shows;
    /// returns what the terminal showed and the exit status.
    static func typed(_ arguments: [String], answers: [(prompt: String, text: String)]) async throws -> (String, Int?) {
        let run = try await ChildProcess.run(
            "python3",
            [ptyType, "30"] + answers.flatMap { [$0.prompt, $0.text] } + ["--", HashPasswordTests.program]
                + ["hash-password"] + arguments)
        try #require(run.status == 0, "pty_type.py failed: \(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let output = try #require(object?["output"] as? String, "no output in \(run.stdout.prefix(300))")
        return (output, object?["status"] as? Int)
    }

    @Test("the password is asked twice without echo, and only its hash is shown")
    func noEcho() async throws {
        let password = "typed but never shown"
        let (screen, status) = try await Self.typed(
            ["--cost", "10"], answers: [("Password: ", password), ("Again: ", password)])
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("Password: ") && screen.contains("Again: "), "\(screen)")
        #expect(!screen.contains(password), "the terminal showed the password: \(screen.debugDescription)")
        let hash = try #require(
            screen.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("$2b$10$") }, "no hash in \(screen)")
        let directory = try TemporaryDirectory(prefix: "plumhash")
        #expect(try PasswordFile(path: try directory.write("web-password", hash + "\n")).verify(password))
    }

    @Test("a short password typed on a terminal is refused, unechoed, saying what to do; so is a low cost")
    func refusals() async throws {
        let (screen, status) = try await Self.typed(
            ["--cost", "10"], answers: [("Password: ", "plum1234"), ("Again: ", "plum1234")])
        #expect(status != 0 && !screen.contains("$2b$"), "no hash for a short password: \(screen)")
        #expect(screen.contains("at least 10"), "\(screen)")
        #expect(!screen.contains("plum1234"), "the terminal showed the password: \(screen.debugDescription)")
        let (cheap, cheapStatus) = try await Self.typed(["--cost", "4"], answers: [])
        #expect(cheapStatus != 0 && cheap.contains("--cost must be 10 to 31"), "\(cheap)")
        #expect(!cheap.contains("Password: "), "a refused cost asks for no password: \(cheap)")
    }
}

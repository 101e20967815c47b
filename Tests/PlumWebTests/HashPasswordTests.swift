import PlumTestSupport
import PlumTestThreads
import PlumWeb
import Testing

@Suite("plumscale-web hash-password", .timeLimit(.minutes(1)), .ownThreads)
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

import Foundation
import PlumTestSupport
import Testing

/// The fixtures every other suite relies on: a wait that says what it missed, a directory that
/// goes away, a child process whose output and status come back whole.
@Suite("What the tests share")
struct FixtureTests {
    @Test(
        "a wait returns as soon as its condition holds, and one that never holds names what it missed and what it saw")
    func waitSaysWhatItMissed() async throws {
        var checks = 0
        try await waitFor("the third check", timeout: .seconds(30)) {
            checks += 1
            return checks == 3
        }
        #expect(checks == 3, "the condition is checked until it holds, then no more")

        let error = await #expect(throws: FixtureError.self) {
            try await waitFor("a pan to settle", timeout: .milliseconds(50), describe: { "2 readings, both moving" }) {
                false
            }
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("a pan to settle"), "\(message)")
        #expect(message.contains("2 readings, both moving"), "\(message)")
    }

    @Test("a temporary directory is made private to its test and removed with everything in it")
    func temporaryDirectoryGoesAway() throws {
        var path = ""
        do {
            let directory = try TemporaryDirectory(prefix: "plumfixture")
            path = directory.path
            _ = try directory.makeDirectory("nested")
            _ = try directory.write("nested/file.txt", "plum\n")
            #expect(directory.read("nested/file.txt") == "plum\n")
            #expect(path.hasPrefix("/tmp/plumfixture-"), "the prefix names the tests that made it: \(path)")
            #expect(path.utf8.count < 40, "short enough for a socket path inside it: \(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "\(path) was left behind")
    }

    @Test("a child process gives back its standard output, standard error, input and exit status")
    func childProcessRoundTrip() async throws {
        let child = try await ChildProcess.run(
            "/bin/sh", ["-c", "read line; echo \"out:$line\"; echo \"err:$PLUM_FIXTURE\" >&2; exit 3"],
            environment: ["PLUM_FIXTURE": "set"], input: "plum\n")
        #expect(child.status == 3)
        #expect(child.stdout == "out:plum\n")
        #expect(child.stderr == "err:set\n")
    }
}

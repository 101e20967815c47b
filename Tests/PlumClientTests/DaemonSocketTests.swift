import PlumClient
import PlumSystem
import Testing

@Suite("Finding plumscaled's socket")
struct DaemonSocketTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var explicit: String?
        var environment: [String: String]
        var existing: Set<String>
        var expected: String
        var testDescription: String { "\(explicit ?? "no --socket"), \(environment), existing \(existing.sorted())" }
    }

    @Test(
        "--socket, then $PLUMSCALE_SOCKET, then /run/plumscale, then the per-user path",
        arguments: [
            Case(
                explicit: "/x/given.sock", environment: ["PLUMSCALE_SOCKET": "/env.sock"],
                existing: [DaemonSocket.systemPath], expected: "/x/given.sock"),
            Case(
                explicit: nil, environment: ["PLUMSCALE_SOCKET": "/env.sock"],
                existing: [DaemonSocket.systemPath], expected: "/env.sock"),
            Case(
                explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"],
                existing: [DaemonSocket.systemPath, "/run/user/1000/plumscale/plumscale.sock"],
                expected: DaemonSocket.systemPath),
            Case(
                explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"],
                existing: ["/run/user/1000/plumscale/plumscale.sock"],
                expected: "/run/user/1000/plumscale/plumscale.sock"),
            Case(
                explicit: nil, environment: [:], existing: ["/tmp/plumscale-1000/plumscale.sock"],
                expected: "/tmp/plumscale-1000/plumscale.sock"),
            Case(
                explicit: nil, environment: ["XDG_RUNTIME_DIR": "relative"], existing: [],
                expected: DaemonSocket.systemPath),
            Case(explicit: "", environment: ["PLUMSCALE_SOCKET": ""], existing: [], expected: DaemonSocket.systemPath)
        ])
    func order(_ test: Case) {
        let found = DaemonSocket.path(
            explicit: test.explicit, environment: test.environment, userID: 1000,
            exists: { test.existing.contains($0) })
        #expect(found == test.expected, "searched \(test.testDescription) and chose \(found)")
    }

    @Test("the per-user defaults are the ones the daemon binds when run by hand")
    func candidates() {
        let paths = DaemonSocket.defaultCandidates(environment: ["XDG_RUNTIME_DIR": "/run/user/7"], userID: 7)
        #expect(
            paths == [
                "/run/plumscale/plumscale.sock", "/run/user/7/plumscale/plumscale.sock",
                "/tmp/plumscale-7/plumscale.sock"
            ], "candidates were \(paths)")
    }
}

/// The one default-path rule, seen from both sides: where the daemon binds with no socket
/// configured, and that a client finds it there.
@Suite("The daemon's default socket is where clients look")
struct DefaultSocketRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var environment: [String: String]
        var userID: UInt32
        var expected: String
        var testDescription: String { "uid \(userID), \(environment) → \(expected)" }
    }

    @Test(
        "systemd's RuntimeDirectory, then root's /run/plumscale, then the user's runtime directory, then /tmp",
        arguments: [
            Case(environment: ["RUNTIME_DIRECTORY": "/run/plumscale"], userID: 998, expected: DaemonSocket.systemPath),
            Case(environment: ["RUNTIME_DIRECTORY": "/run/a:/run/b"], userID: 998, expected: "/run/a/plumscale.sock"),
            Case(environment: ["XDG_RUNTIME_DIR": "/run/user/0"], userID: 0, expected: DaemonSocket.systemPath),
            Case(
                environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000,
                expected: "/run/user/1000/plumscale/plumscale.sock"),
            Case(
                environment: ["XDG_RUNTIME_DIR": "relative"], userID: 1000,
                expected: "/tmp/plumscale-1000/plumscale.sock"),
            Case(environment: [:], userID: 1000, expected: "/tmp/plumscale-1000/plumscale.sock")
        ])
    func bothSides(_ test: Case) {
        let bound = DaemonSocketPath.binding(environment: test.environment, userID: test.userID)
        #expect(bound == test.expected, "the daemon binds \(bound)")
        // A client of the same user (systemd's RUNTIME_DIRECTORY is the daemon's alone) finds
        // the socket when it is the only one there, unless it is in a directory of systemd's choosing.
        var clientEnvironment = test.environment
        clientEnvironment["RUNTIME_DIRECTORY"] = nil
        let found = DaemonSocket.path(environment: clientEnvironment, userID: test.userID) { $0 == bound }
        if test.environment["RUNTIME_DIRECTORY"] == nil || bound == DaemonSocket.systemPath {
            #expect(found == bound, "the client looked at \(found)")
        }
    }
}

import PlumClient
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

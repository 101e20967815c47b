import Foundation
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client that runs as another user: `setpriv` drops to uid/gid 65534 (nobody) with exactly
/// the given supplementary groups, then a small Python program speaks the protocol line by line.
enum UnprivilegedClient {
    static let setpriv = "/usr/bin/setpriv"
    static let python = "/usr/bin/python3"

    /// Dropping to another uid needs root; the tools must be where an unprivileged user can run them.
    static var available: Bool {
        geteuid() == 0 && access(setpriv, X_OK) == 0 && access(python, X_OK) == 0
    }

    /// Connects to `socket` as uid/gid 65534 with supplementary `groups`, sends each of `lines`
    /// and collects the lines the daemon answers: `expect[i]` answer lines after `lines[i]`
    /// (plus the greeting first when `greeting` is true). Prints `uid=… groups=…` first.
    static func run(
        socket: String, groups: [UInt32], lines: [String], expect: [Int], terminator: String = "\n",
        greeting: Bool = true
    ) -> [String] {
        let program = """
            import os, socket, sys
            path, terminator, greeting = sys.argv[1], sys.argv[2].encode(), sys.argv[3] == "1"
            groups = ",".join(map(str, sorted(os.getgroups())))
            print("uid=%d gid=%d groups=%s" % (os.getuid(), os.getgid(), groups), flush=True)
            s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(path)
            f = s.makefile("rb")
            def line():
                raw = f.readline()
                print(raw.decode().replace("\\r", "<CR>").rstrip("\\n") if raw else "EOF", flush=True)
            if greeting: line()
            for request, count in zip(sys.argv[4::2], sys.argv[5::2]):
                s.sendall(request.encode() + terminator)
                for _ in range(int(count)): line()
            """
        let groupOption =
            groups.isEmpty ? "--clear-groups" : "--groups=" + groups.map(String.init).joined(separator: ",")
        var command = [
            "--reuid=65534", "--regid=65534", groupOption, python, "-I", "-c", program, socket,
            terminator, greeting ? "1" : "0"
        ]
        for (line, count) in zip(lines, expect) { command += [line, String(count)] }
        let run =
            (try? ChildProcess.run(setpriv, command))
            ?? ChildProcess(status: -1, stdout: "", stderr: "could not run \(setpriv)")
        // The program marks CR as <CR>, so the exact framing survives the trip through print().
        return (run.stdout + run.stderr).split(separator: "\n").map {
            String($0).replacingOccurrences(of: "<CR>", with: "\r")
        }
    }
}

/// The name of the group with this gid, such as "nogroup" for 65534 on Debian.
func groupName(_ gid: UInt32) -> String? {
    getgrgid(gid).map { String(cString: $0.pointee.gr_name) }
}

@Suite(
    "plumscaled authorization, with real peers of other users", .serialized, .tags(.process), .timeLimit(.minutes(3)),
    .ownThreads)
struct AuthorizationProcessTests {
    /// A daemon whose socket the nobody user may open (its group is nobody's primary group),
    /// and whose admin group is another existing group.
    static func startDaemon(adminGroup: String, extra: String = "") throws -> (DaemonFixture, String, String) {
        let temporary = try TemporaryDirectory(prefix: "plumauth")
        let directory = temporary.path
        chmod(directory, 0o755)  // mkdtemp makes it 0700: the peer must reach the socket
        let socketPath = temporary.file("plumscale.sock")
        let nobodyGroup = try #require(groupName(65534), "no group with gid 65534 on this system")
        let configuration = """
            [daemon]
            socket = "\(socketPath)"
            socket_group = "\(nobodyGroup)"
            admin_group = "\(adminGroup)"
            state_directory = "\(directory)/state"
            \(extra.replacingOccurrences(of: "$DIR", with: directory))

            [[sensor]]
            name = "left"
            kind = "simulated-hx711"
            seed = 1
            rate = 80
            load_grams = 100
            """
        let daemon = try DaemonFixture(configuration: configuration, directory: temporary)
        // Wait until it weighs (as root, which may always connect).
        try daemon.waitForReadings()
        return (daemon, socketPath, directory)
    }

    /// An existing group other than nobody's, to serve as the admin group.
    static var adminGroup: (name: String, gid: UInt32)? {
        for gid: UInt32 in [100, 46, 20, 4] where gid != 65534 {
            if let name = groupName(gid) { return (name, gid) }
        }
        return nil
    }

    @Test(
        "a peer that can connect but has no rights gets one 'not permitted' line for ?TARE, ?ZERO and ?CALIBRATE, and its POLL is still answered",
        .enabled(
            if: UnprivilegedClient.available, "needs root (to drop to uid 65534), /usr/bin/setpriv and /usr/bin/python3"
        ))
    func peerWithoutRightsIsRefused() throws {
        let admin = try #require(Self.adminGroup, "no group to use as admin_group")
        let (daemon, socketPath, _) = try Self.startDaemon(adminGroup: admin.name)
        let lines = UnprivilegedClient.run(
            socket: socketPath, groups: [],
            lines: [
                #"?TARE={"sensor":"left"};"#, "?POLL;", #"?ZERO={"sensor":"left"};"#,
                #"?CALIBRATE={"sensor":"left","step":"begin"};"#, "?DEVICES;"
            ],
            expect: [1, 1, 1, 1, 1])
        try #require(lines.count == 7, "expected identity, greeting and five answers, got \(lines)")
        #expect(lines[0] == "uid=65534 gid=65534 groups=", "the peer really runs without rights: \(lines[0])")
        #expect(lines[1].hasPrefix(#"{"class":"VERSION""#), "the greeting: \(lines[1])")
        for index in [2, 4, 5] {
            #expect(lines[index].hasPrefix(#"{"class":"ERROR","message":"not permitted: "#), "\(lines[index])")
            #expect(
                lines[index].contains("sudo usermod -aG \(admin.name)"), "says which group to join: \(lines[index])")
            #expect(lines[index].contains("uid 65534"), "says who the client is: \(lines[index])")
        }
        #expect(
            lines[3].hasPrefix(#"{"class":"POLL""#) && lines[3].contains(#""sensor":"left""#),
            "reading stays open: \(lines[3])")
        #expect(lines[6].hasPrefix(#"{"class":"DEVICES""#), "\(lines[6])")
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }

    @Test(
        "a peer in admin_group as a supplementary group may tare and zero",
        .enabled(
            if: UnprivilegedClient.available, "needs root (to drop to uid 65534), /usr/bin/setpriv and /usr/bin/python3"
        ))
    func adminGroupMemberIsPermitted() throws {
        let admin = try #require(Self.adminGroup, "no group to use as admin_group")
        let (daemon, socketPath, _) = try Self.startDaemon(adminGroup: admin.name)
        let lines = UnprivilegedClient.run(
            socket: socketPath, groups: [admin.gid],
            lines: [#"?TARE={"sensor":"left"};"#, #"?ZERO={"sensor":"left"};"#], expect: [1, 1])
        try #require(lines.count == 4, "expected identity, greeting and two answers, got \(lines)")
        #expect(lines[0] == "uid=65534 gid=65534 groups=\(admin.gid)", "the peer's identity: \(lines[0])")
        // Permitted: the station answers (ok or a reason such as a moving load), not the gate.
        #expect(lines[2].hasPrefix(#"{"class":"TARE","sensor":"left""#), "\(lines[2])")
        #expect(lines[3].hasPrefix(#"{"class":"ZERO","sensor":"left""#), "\(lines[3])")
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }
}

import PlumProtocol
import Synchronization
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Glibc
    import PlumTestSupport
#endif

@Suite("Who may change the scale's state")
struct CommandAuthorizationTests {
    /// A daemon running as uid 998 'plumscale' with admin group 'plumscale-admin' (gid 1001).
    let policy = CommandAuthorization(
        daemonUID: 998, daemonUserName: "plumscale", adminGroup: .init(name: "plumscale-admin", gid: 1001),
        unixSocket: "/run/plumscale/plumscale.sock")

    struct PeerCase: Sendable, CustomTestStringConvertible {
        var what: String
        var peer: PeerCredentials?
        var grant: CommandAuthorization.Grant?
        var testDescription: String { what }
    }

    @Test(
        "root, the daemon's user and admin-group members are permitted; everyone else and TCP are refused",
        arguments: [
            PeerCase(what: "root", peer: .init(pid: 10, uid: 0, gid: 0, groups: []), grant: .root),
            PeerCase(
                what: "root even with unknown groups", peer: .init(pid: 10, uid: 0, gid: 0, groups: nil), grant: .root),
            PeerCase(
                what: "the daemon's own user", peer: .init(pid: 11, uid: 998, gid: 998, groups: []),
                grant: .daemonUser),
            PeerCase(
                what: "a supplementary member of the admin group",
                peer: .init(pid: 12, uid: 1000, gid: 1000, groups: [27, 1001]), grant: .adminGroup),
            PeerCase(
                what: "the admin group as primary group", peer: .init(pid: 13, uid: 1000, gid: 1001, groups: []),
                grant: .adminGroup),
            PeerCase(
                what: "a user in other groups", peer: .init(pid: 14, uid: 1000, gid: 1000, groups: [27, 100]),
                grant: nil),
            PeerCase(
                what: "nobody with no groups", peer: .init(pid: 15, uid: 65534, gid: 65534, groups: []), grant: nil),
            PeerCase(
                what: "a user whose groups could not be read", peer: .init(pid: 0, uid: 1000, gid: 1000, groups: nil),
                grant: nil),
            PeerCase(what: "a TCP client", peer: nil, grant: nil)
        ])
    func decides(_ given: PeerCase) {
        let decision = policy.decide(given.peer, command: "?TARE")
        if let grant = given.grant {
            #expect(decision == .permitted(grant))
        } else {
            #expect(!decision.isPermitted)
        }
    }

    @Test("a refused Unix peer is told who may, who it is, and how to join the group")
    func refusalSaysWhatToDo() throws {
        let decision = policy.decide(.init(pid: 15, uid: 65534, gid: 65534, groups: []), command: "?TARE")
        guard case .refused(let message) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(message.hasPrefix("not permitted: ?TARE changes the scale"))
        #expect(message.contains("root, the daemon's user 'plumscale' (uid 998) or members of group 'plumscale-admin'"))
        #expect(message.contains("uid 65534, gid 65534 with no supplementary groups"))
        #expect(message.contains("sudo usermod -aG plumscale-admin $USER"))
    }

    @Test("without an admin group, the refusal points at admin_group in the configuration")
    func refusalWithoutGroup() {
        let rootDaemon = CommandAuthorization(daemonUID: 0)
        let decision = rootDaemon.decide(.init(pid: 15, uid: 1000, gid: 1000, groups: nil), command: "?ZERO")
        #expect(
            decision
                == .refused(
                    "not permitted: ?ZERO changes the scale and is allowed only to root; "
                        + "this client runs as uid 1000, gid 1000 "
                        + "(its supplementary groups could not be read); run the client as root, or set [daemon] "
                        + "admin_group in plumscale.toml so a group's members may"
                ))
    }

    @Test("a TCP client is told TCP is read-only and which socket to use")
    func tcpRefusal() {
        guard case .refused(let message) = policy.decide(nil, command: "MT-SICS Z") else {
            Issue.record("TCP must be read-only")
            return
        }
        #expect(message.contains("TCP is read-only"))
        #expect(message.contains("over the Unix socket /run/plumscale/plumscale.sock"))
    }

    @Test("only zero, tare and calibration change state, in both protocols")
    func stateChangingCommands() {
        #expect(Request.tare(sensor: "left").changesState)
        #expect(Request.zero(sensor: "left").changesState)
        #expect(Request.calibrate(.init(sensor: "left", step: .begin)).changesState)
        #expect(![Request.poll, .devices, .version, .watch(.init())].contains { $0.changesState })
        let changing: [MTSICSCommand] = [
            .zero, .zeroImmediately, .tare, .tareImmediately, .tarePreset(grams: 5), .tareClear
        ]
        let reading: [MTSICSCommand] = [
            .reset, .inquiry(4), .stableWeight, .immediateWeight, .immediateWeightRepeat, .tareQuery
        ]
        #expect(changing.allSatisfy { $0.changesState })
        #expect(!reading.contains { $0.changesState })
    }
}

@Suite("Peer groups from /proc/<pid>/status")
struct ProcessGroupsTests {
    static let status = """
        Name:\tpython3
        Umask:\t0022
        State:\tS (sleeping)
        Uid:\t65534\t65534\t65534\t65534
        Gid:\t65534\t65534\t65534\t65534
        Groups:\t100 1001 
        NStgid:\t4242

        """

    @Test("the Groups line is read when the effective uid matches SO_PEERCRED's")
    func readsGroups() {
        #expect(ProcessGroups.parse(status: Self.status, uid: 65534) == [100, 1001])
    }

    @Test("another uid (a reused pid, a changed identity) makes the groups unknown, never someone else's")
    func uidMismatch() {
        #expect(ProcessGroups.parse(status: Self.status, uid: 1000) == nil)
    }

    @Test("an empty Groups line is no groups; a garbled one is unknown")
    func emptyAndGarbled() {
        #expect(ProcessGroups.parse(status: "Uid:\t5\t5\t5\t5\nGroups:\t\n", uid: 5) == [])
        #expect(ProcessGroups.parse(status: "Uid:\t5\t5\t5\t5\nGroups:\t12 x\n", uid: 5) == nil)
    }

    @Test("this test process's own groups are read from the real /proc")
    func ownProcess() {
        #expect(ProcessGroups.read(pid: getpid(), uid: geteuid()) != nil)
        #expect(ProcessGroups.read(pid: 0, uid: 0) == nil)
    }
}

@Suite("Authorization at the transport, over real sockets", .serialized)
struct TransportAuthorizationTests {
    @Test(
        "over loopback TCP, ?TARE gets one 'not permitted' line naming the Unix socket, and the connection keeps answering ?POLL"
    )
    func tcpIsReadOnly() async throws {
        let directory = try TemporaryDirectory()
        let unixPath = directory.path + "/plumscale.sock"
        let server = SocketServer(
            hub: ClientHub(configuration: .withoutIdleClose), requestHandler: ScaleRequestHandler(),
            endpoints: [.unixSocket(path: unixPath), .loopbackTCP(host: "127.0.0.1", port: 0)],
            authorization: CommandAuthorization(daemonUID: geteuid(), unixSocket: unixPath), logger: quietLogger)
        try await server.start()
        do {
            let port = try #require(server.boundAddresses.last??.port)
            let client = try TestClient(loopbackPort: port)
            #expect(try await client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
            try await client.send("?TARE={\"sensor\":\"left\"};\n?POLL;\n")
            let refusal = try #require(try await client.readLine())
            #expect(refusal.hasPrefix("{\"class\":\"ERROR\",\"message\":\"not permitted: ?TARE changes the scale"))
            #expect(refusal.contains("TCP is read-only") && refusal.contains(unixPath))
            #expect(try await client.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.poll(1)))

            // The same request over the Unix socket, from this (root or daemon-user) process, is carried out.
            let local = try TestClient(path: unixPath)
            _ = try await local.readLine()
            try await local.send("?TARE={\"sensor\":\"left\"};\n")
            #expect(try await local.readLine() == ScaleRequestHandler.line(ScaleRequestHandler.command("TARE", "left")))
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test("SO_PEERCRED at accept gives this process's pid, uid, gid and groups to the request handler")
    func peerCredentialsReachTheHandler() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/plumscale.sock"
        let recorder = PeerRecorder()
        let server = SocketServer(
            hub: ClientHub(configuration: .withoutIdleClose), requestHandler: recorder,
            endpoints: [.unixSocket(path: path)], logger: quietLogger)
        try await server.start()
        do {
            let client = try TestClient(path: path)
            _ = try await client.readLine()
            try await client.send("?POLL;\n")
            _ = try await client.readLine()
            let peer = try #require(recorder.peers.withLock { $0.first } ?? nil, "a Unix client has credentials")
            #expect(peer.pid == getpid())
            #expect(peer.uid == geteuid())
            #expect(peer.gid == getegid())
            #expect(peer.groups != nil, "the groups of a live local process can be read")
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}

/// Records who sent each request.
final class PeerRecorder: RequestHandler {
    let peers = Mutex<[PeerCredentials?]>([])
    func reply(to request: Request, from client: ClientInfo) async -> [Report] {
        peers.withLock { $0.append(client.peer) }
        return [ScaleRequestHandler.poll(0)]
    }
}

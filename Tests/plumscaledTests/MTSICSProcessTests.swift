import PlumSystem
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A weight response's parts: `S S     100.00 g` → ("S", "S", 100.0), checking the exact
/// layout a balance sends: identifier, status, the value right-aligned in 10 characters, the
/// unit, and CR (the LF is the line end `LineSocket` splits on).
func weightResponse(_ line: String?, id: String) -> (status: String, grams: Double)? {
    guard let line, line.hasSuffix(" g\r") else { return nil }
    let prefix = id + " "
    guard line.hasPrefix(prefix) else { return nil }
    let rest = Array(line.dropFirst(prefix.count).dropLast(3))  // "S" + " " + 10 characters
    guard rest.count == 12, rest[1] == " " else { return nil }
    let field = String(rest[2...])
    guard field.first == " " || field.first?.isNumber == true || field.first == "-",
        let grams = Double(field.drop { $0 == " " })
    else { return nil }
    return (String(rest[0]), grams)
}

/// A free loopback TCP port (bound, then released for the daemon to take).
func freeLoopbackPort() -> Int? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    guard InternetSocketAddress.loopback(port: 0).withSockaddr({ bind(descriptor, $0, $1) }) == 0,
        case .success(let address?) = InternetSocketAddress.local(of: descriptor)
    else { return nil }
    return Int(address.port)
}

@Suite(
    "plumscaled's MT-SICS listener, as a child process on a real socket", .serialized, .tags(.process),
    .timeLimit(.minutes(3)), .ownThreads)
struct MTSICSProcessTests {
    static func config(directory: String, mtsics: String) -> String {
        """
        [scale]
        capacity_grams = 385
        division_grams = 0.1

        [daemon]
        socket = "\(directory)/plumscale.sock"
        mtsics = "\(mtsics)"
        mtsics_sensor = "right"
        # A TCP peer may not change the scale, so the idle close applies to it: not mid-test.
        idle_timeout_seconds = 0
        state_directory = "\(directory)/state"

        [[sensor]]
        name = "left"
        kind = "simulated-hx711"
        seed = 1
        rate = 80

        [[sensor]]
        name = "right"
        kind = "simulated-hx711"
        seed = 2
        rate = 80
        load_grams = 100
        """
    }

    @Test(
        "I4, SI, S, T, TA, TAC, Z, a preset TA, a bogus command and @ get a balance's exact CR LF responses, weighing mtsics_sensor"
    )
    func balanceCommands() throws {
        let directory = try TemporaryDirectory(prefix: "plumsics")
        let mtsicsPath = directory.file("mtsics.sock")
        let daemon = try DaemonFixture(
            configuration: Self.config(directory: directory.path, mtsics: mtsicsPath), directory: directory)
        let balance = try LineSocket(path: mtsicsPath)

        balance.send("I4\r")
        #expect(balance.readLine() == "I4 A \"PLUM0001\"\r")

        // The right pan carries a constant 100 g: S waits for it to be stable.
        balance.send("S\r")
        let stable = try #require(weightResponse(balance.readLine(), id: "S"), "S answers S S <value> g")
        #expect(stable.status == "S")
        #expect(abs(stable.grams - 100) < 1, "weighs the right pan (100 g), not the left: \(stable.grams)")

        balance.send("SI\r")
        let immediate = try #require(weightResponse(balance.readLine(), id: "S"))
        #expect(immediate.status == "S" || immediate.status == "D")
        #expect(abs(immediate.grams - 100) < 1)

        balance.send("T\r")
        let tare = try #require(weightResponse(balance.readLine(), id: "T"), "T answers T S <tare> g")
        #expect(tare.status == "S" && abs(tare.grams - 100) < 1)

        balance.send("TA\r")
        let tareQuery = try #require(weightResponse(balance.readLine(), id: "TA"), "TA answers TA A <tare> g")
        #expect(tareQuery.status == "A" && tareQuery.grams == tare.grams, "TA reports the tare T took")

        balance.send("S\r")
        let net = try #require(weightResponse(balance.readLine(), id: "S"))
        #expect(abs(net.grams) <= 0.5, "after the tare the net weight is zero: \(net.grams)")

        balance.send("TAC\r")
        #expect(balance.readLine() == "TAC A\r")
        balance.send("SI\r")
        let cleared = try #require(weightResponse(balance.readLine(), id: "S"))
        #expect(abs(cleared.grams - 100) < 1, "the first weight after TAC is gross again: \(cleared.grams)")

        // 100 g lies above the zero range (±2 % of 385 g): a balance answers Z +.
        balance.send("Z\r")
        #expect(balance.readLine() == "Z +\r")

        balance.send("TA 25.0 g\r")
        #expect(balance.readLine() == "TA A       25.0 g\r")
        balance.send("TA 9999 g\r")
        #expect(balance.readLine() == "TA L\r", "a preset beyond the capacity is a parameter error")
        balance.send("TAC\r")
        #expect(balance.readLine() == "TAC A\r")

        balance.send("XYZ\r")
        #expect(balance.readLine() == "ES\r")
        balance.send("SI\r")
        #expect(weightResponse(balance.readLine(), id: "S") != nil, "the connection stays usable after ES")

        balance.send("SIR\r")
        for _ in 0..<3 {
            #expect(weightResponse(balance.readLine(), id: "S") != nil, "SIR repeats the weight")
        }
        balance.send("@\r")
        #expect(balance.readUntil(limit: 200) { $0 == "I4 A \"PLUM0001\"\r" } != nil, "@ ends SIR and answers like I4")
        balance.send("I4\r")
        #expect(balance.readLine() == "I4 A \"PLUM0001\"\r", "nothing of SIR follows @")

        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }

    @Test(
        "a peer without rights may weigh over MT-SICS but gets EL for Z, ZI, T, TI, a preset TA and TAC",
        .enabled(
            if: UnprivilegedClient.available, "needs root (to drop to uid 65534), /usr/bin/setpriv and /usr/bin/python3"
        ))
    func unprivilegedPeer() throws {
        let admin = try #require(AuthorizationProcessTests.adminGroup, "no group to use as admin_group")
        let (daemon, _, directory) = try AuthorizationProcessTests.startDaemon(
            adminGroup: admin.name, extra: "mtsics = \"$DIR/mtsics.sock\"")
        let lines = UnprivilegedClient.run(
            socket: "\(directory)/mtsics.sock", groups: [],
            lines: ["SI", "Z", "ZI", "T", "TI", "TA 5 g", "TAC", "TA"], expect: [1, 1, 1, 1, 1, 1, 1, 1],
            terminator: "\r\n", greeting: false)
        try #require(lines.count == 9, "expected identity and eight answers, got \(lines)")
        #expect(lines[0] == "uid=65534 gid=65534 groups=")
        #expect(weightResponse(lines[1], id: "S") != nil, "weighing is open: \(lines[1])")
        for index in 2...7 {
            #expect(lines[index] == "EL\r", "state changes are refused: \(lines[index])")
        }
        #expect(lines[8] == "TA A        0.0 g\r", "the tare query is open, and nothing was tared")
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }

    @Test("over loopback TCP, MT-SICS weighs but refuses Z with EL: a TCP peer has no credentials")
    func tcpIsReadOnly() throws {
        let directory = try TemporaryDirectory(prefix: "plumsics")
        let port = try #require(freeLoopbackPort(), "no free loopback port")
        let daemon = try DaemonFixture(
            configuration: Self.config(directory: directory.path, mtsics: "127.0.0.1:\(port)"), directory: directory)
        let balance = try LineSocket(loopbackPort: port)
        balance.send("S\r")  // waits for the first stable reading; SI might come before any
        let weight = balance.readLine()
        #expect(weightResponse(weight, id: "S") != nil, "S answered \(weight ?? "nothing")")
        balance.send("Z\r")
        let zero = balance.readLine()
        #expect(zero == "EL\r", "Z over TCP answered \(zero ?? "nothing")")
        balance.send("TAC\r")
        let clear = balance.readLine()
        #expect(clear == "EL\r", "TAC over TCP answered \(clear ?? "nothing")")
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }
}

import Testing

@testable import PlumProtocol

/// `?CLIENT` (protocol 1.7): a service's announcement, its `CLIENT` answer and the `clients` of
/// `DEVICES`, each written once and read once, and every bound refused with the field named.
@Suite("?CLIENT announcements and the clients of DEVICES")
struct ClientProtocolTests {
    static let bridge = ClientAnnouncement(
        name: "plumscale-mqtt", version: "0.1.0", started: "2026-11-27T06:30:00Z", uptime: 11_520.5, reconnects: 2,
        detail: ["broker": .text("connected"), "queued": .number(3), "tls": .flag(false)])

    @Test("an announcement round-trips through its line, detail sorted by key")
    func announcementRoundTrip() throws {
        let request = Request.client(Self.bridge)
        #expect(
            request.line
                == #"?CLIENT={"name":"plumscale-mqtt","version":"0.1.0","started":"2026-11-27T06:30:00Z","#
                + #""uptime":11520.5,"reconnects":2,"detail":{"broker":"connected","queued":3,"tls":false}};"#)
        #expect(try Request.parse(request.line[...]) == request)
        let bare = Request.client(ClientAnnouncement(name: "plumscale-web"))
        #expect(bare.line == #"?CLIENT={"name":"plumscale-web"};"#)
        #expect(try Request.parse(bare.line[...]) == bare)
        #expect(!request.changesState, "announcing changes only what status lists: any client may")
        #expect(request.name == "?CLIENT")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var argument: String
        var message: String
        var testDescription: String { argument }
    }

    static let refusals: [Refusal] = [
        Refusal(argument: #"{"version":"1"}"#, message: #"?CLIENT: missing "name""#),
        Refusal(argument: #"{"name":""}"#, message: #"?CLIENT: "name" must be 1 to 40 characters"#),
        Refusal(argument: #"{"name":"\#(String(repeating: "m", count: 41))"}"#, message: #""name" must be 1 to 40"#),
        Refusal(argument: #"{"name":"my bridge"}"#, message: "letters, digits, '.', '_' and '-'"),
        Refusal(
            argument: #"{"name":"b","version":"\#(String(repeating: "1", count: 121))"}"#,
            message: #"?CLIENT: "version" is 121 bytes of UTF-8; at most 120 are kept"#),
        // Bytes, not characters: 41 two-byte letters are 82 bytes.
        Refusal(
            argument: #"{"name":"b","version":"\#(String(repeating: "é", count: 61))"}"#,
            message: #"?CLIENT: "version" is 122 bytes of UTF-8"#),
        Refusal(
            argument: #"{"name":"b","version":"1.0\u001b]0;owned\u0007"}"#,
            message: #"?CLIENT: "version" holds U+001B (escape) at character 4"#),
        Refusal(
            argument: #"{"name":"b","version":"1.0\u009b2J"}"#,
            message: #""version" holds U+009B (a C1 control character)"#),
        Refusal(
            argument: #"{"name":"b","started":"2026\u202e"}"#,
            message: #""started" holds U+202E (a bidi control)"#),
        Refusal(
            argument: #"{"name":"b","detail":{"error":"line\nbreak"}}"#,
            message: #""detail.error" holds U+000A (a line break)"#),
        Refusal(
            argument: #"{"name":"b","detail":{"k\u001b":1}}"#,
            message: #"a "detail" key must be 1 to 32 bytes with no control character"#),
        Refusal(argument: #"{"name":"b","uptime":-1}"#, message: #"?CLIENT: "uptime" must be seconds"#),
        Refusal(argument: #"{"name":"b","reconnects":-2}"#, message: #"?CLIENT: "reconnects" must be 0 or more"#),
        Refusal(argument: #"{"name":"b","reconnects":"two"}"#, message: #"?CLIENT: "reconnects" has the wrong type"#),
        Refusal(
            argument: #"{"name":"b","detail":{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1}}"#,
            message: #"?CLIENT: "detail" has 9 entries; at most 8 are kept"#),
        Refusal(
            argument: #"{"name":"b","detail":{"\#(String(repeating: "k", count: 33))":1}}"#,
            message: #"?CLIENT: a "detail" key must be 1 to 32 bytes"#),
        Refusal(
            argument: #"{"name":"b","detail":{"error":"\#(String(repeating: "e", count: 121))"}}"#,
            message: #"?CLIENT: "detail.error" is 121 bytes of UTF-8; at most 120 are kept"#),
        Refusal(argument: #"{"name":"b","detail":{"nested":{"a":1}}}"#, message: "?CLIENT:"),
        Refusal(argument: "", message: "?CLIENT needs a JSON argument")
    ]

    @Test("a bad announcement is refused with a message naming the field and its bound", arguments: refusals)
    func refused(_ refusal: Refusal) {
        let line = refusal.argument.isEmpty ? "?CLIENT;" : "?CLIENT=\(refusal.argument);"
        #expect {
            try Request.parse(line[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains(refusal.message) == true
        }
    }

    @Test("the CLIENT answer round-trips")
    func reply() throws {
        let report = Report.client(ClientReply(name: "plumscale-mqtt", connections: 3))
        #expect(report.line == #"{"class":"CLIENT","name":"plumscale-mqtt","connections":3}"# + "\n")
        #expect(try Report.decode(report.line.dropLast()[...]) == report)
    }

    @Test("DEVICES lists connected and remembered services after the daemon object, and round-trips")
    func devicesClients() throws {
        let services = [
            ServiceReport(
                name: "plumscale-mqtt", connected: true, version: "0.1.0", started: "2026-11-27T06:30:00Z",
                uptime: 11_520.25, reconnects: 2, connections: 3, detail: ["broker": .text("connected")]),
            ServiceReport(
                name: "plumscale-web", connected: false, version: "0.1.0", reconnects: 0, connections: 1,
                lastSeen: "2026-11-27T10:42:00Z")
        ]
        let report = Report.devices(DevicesReport(devices: [], uptime: 3, clients: services))
        let line = report.line
        #expect(
            line.hasSuffix(
                #""uptime":3,"clients":[{"name":"plumscale-mqtt","connected":true,"version":"0.1.0","#
                    + #""started":"2026-11-27T06:30:00Z","uptime":11520.25,"reconnects":2,"connections":3,"#
                    + #""detail":{"broker":"connected"}},{"name":"plumscale-web","connected":false,"#
                    + #""version":"0.1.0","reconnects":0,"connections":1,"last_seen":"2026-11-27T10:42:00Z"}]}"#
                    + "\n"),
            "\(line)")
        #expect(try Report.decode(line.dropLast()[...]) == report)
        let older = Report.devices(DevicesReport(devices: [], uptime: 3)).line
        #expect(!older.contains("clients"), "absent, not empty, when the daemon keeps no list: \(older)")
        guard case .devices(let decoded) = try Report.decode(older.dropLast()[...]) else { return }
        #expect(decoded.clients == nil)
    }
}

import Testing

@testable import PlumProtocol

@Suite("?SESSION requests and SESSION replies: parsed, refused with what to send, encoded and decoded alike")
struct SessionProtocolTests {
    @Test(
        "?SESSION parses each action; start and stop change state, show and list do not; the line is its inverse",
        arguments: [
            (
                #"?SESSION={"action":"start","name":"crate-12"};"#, SessionRequest(action: .start, name: "crate-12"),
                true
            ),
            (
                #"?SESSION={"action":"start","name":"crate 3","sensor":"left"};"#,
                SessionRequest(action: .start, name: "crate 3", sensor: "left"), true
            ),
            (#"?SESSION={"action":"stop"};"#, SessionRequest(action: .stop), true),
            (#"?SESSION={"action":"show"};"#, SessionRequest(action: .show), false),
            (#"?SESSION={"action":"show","name":"crate-12"};"#, SessionRequest(action: .show, name: "crate-12"), false),
            (#"?SESSION={"action":"list"};"#, SessionRequest(action: .list), false)
        ])
    func parses(line: String, expected: SessionRequest, changesState: Bool) throws {
        let request = try Request.parse(line[...])
        #expect(request == .session(expected))
        #expect(request.changesState == changesState && request.name == "?SESSION")
        #expect(request.line == line, "the client writes what the daemon reads")
    }

    @Test(
        "a bad ?SESSION is refused, saying what to send",
        arguments: [
            (#"?SESSION={"action":"start"};"#, #"action "start" needs "name""#),
            (#"?SESSION={"action":"begin"};"#, "action must be start, stop, show or list"),
            (#"?SESSION={"action":"stop","name":"x"};"#, "takes no \"name\""),
            (#"?SESSION={"action":"list","sensor":"left"};"#, "takes no \"name\" or \"sensor\""),
            (#"?SESSION={"action":"show","sensor":"left"};"#, #""sensor" goes with action "start" only"#),
            ("?SESSION;", "?SESSION needs a JSON argument")
        ])
    func refuses(line: String, mentions: String) {
        #expect {
            try Request.parse(line[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains(mentions) == true
        }
    }

    @Test(
        "a start's name over 64 bytes of UTF-8, of two lines, or with an escape or a bidi override is refused",
        arguments: [
            (String(repeating: "p", count: 65), #""name" is 65 bytes of UTF-8; at most 64 are kept"#),
            // 1,301 combining marks on one letter are one grapheme, and 2,602 bytes.
            ("a" + String(repeating: "\u{301}", count: 1301), #""name" is 2603 bytes of UTF-8"#),
            (String(repeating: "é", count: 33), #""name" is 66 bytes"#),
            ("a\nb", #""name" holds U+000A (a line break) at character 2"#),
            ("crate\u{1B}]0;pwned\u{07}", #""name" holds U+001B (escape) at character 6"#),
            ("crate\u{202E}21", #""name" holds U+202E (a bidi control)"#),
            ("crate\u{9B}2J", #""name" holds U+009B (a C1 control character)"#)
        ])
    func badNames(name: String, mentions: String) {
        var json = JSONWriter()
        json.add("action", "start")
        json.add("name", name)
        #expect {
            try Request.parse("?SESSION=\(json.finished);"[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains(mentions) == true
        }
    }

    @Test("a name of 64 bytes, accents and all, is kept")
    func longestName() throws {
        let name = String(repeating: "é", count: 32)
        let request = try Request.parse(#"?SESSION={"action":"start","name":"\#(name)"};"#[...])
        #expect(request == .session(SessionRequest(action: .start, name: name)))
    }

    @Test("a SESSION reply with figures and items encodes to the documented line and decodes to the same values")
    func replyRoundTrip() throws {
        let line =
            #"{"class":"SESSION","action":"show","ok":true,"message":"session crate-12","sessions":["#
            + #"{"name":"crate-12","sensor":"left","started":"2026-09-02T08:15:00Z","stopped":null,"#
            + #""division":0.1,"count":2,"total":122.2,"#
            + #""mean":61.1,"min":34.9,"max":87.3,"heaviest_item":1,"std_dev":37.33,"classes":[{"name":"small","#
            + #""count":1},{"name":"large","count":1}],"unclassified":0,"items":[{"item":1,"grams":87.3,"#
            + #""weight_class":"large","flags":[],"at":"2026-09-02T08:15:03Z"},{"item":2,"grams":34.9,"#
            + #""weight_class":"small","flags":["merged"],"at":"2026-09-02T08:15:09Z"}]}]}"#
        guard case .session(let reply) = try Report.decode(line[...]) else {
            Issue.record("not a SESSION")
            return
        }
        let session = try #require(reply.sessions.first)
        #expect(
            session.running && session.count == 2 && session.heaviestItem == 1 && session.standardDeviation == 37.33)
        #expect(session.classes == [.init(name: "small", count: 1), .init(name: "large", count: 1)])
        #expect(session.items?.map(\.flags) == [[], ["merged"]] && session.items?.last?.weightClass == "small")
        #expect(Report.session(reply).line == line + "\n", "the encoder's line differs from the documented one")
    }
}

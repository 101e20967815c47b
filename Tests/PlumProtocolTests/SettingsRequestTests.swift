import Testing

@testable import PlumProtocol

/// The settings requests of protocol 1.5: preset and named tares, the tare library, an alert's
/// values at runtime. Each is written by the one encoder and read back to the same value, and a
/// malformed one is refused saying what to send.
@Suite("Settings requests: preset and named tares, the tare library, alert values")
struct SettingsRequestTests {
    static let requests: [Request] = [
        .presetTare(sensor: "left", grams: 212.5),
        .presetTare(sensor: "left", grams: 0),
        .useTare(sensor: "left", name: "bowl 2"),
        .tares(.list),
        .tares(.save(name: "bowl", sensor: "left", grams: nil)),
        .tares(.save(name: "crate", sensor: nil, grams: 1200)),
        .tares(.delete(name: "crate")),
        .setAlert(AlertChange(name: "fruit-low", threshold: 150)),
        .setAlert(AlertChange(name: "fruit-low", hysteresis: 0)),
        .setAlert(AlertChange(name: "fruit-low", threshold: -3.5, hysteresis: 20)),
        .setAlert(AlertChange(name: "fruit-low", clear: true))
    ]

    @Test("every settings request a client writes parses back to the same request", arguments: requests)
    func roundTrips(request: Request) throws {
        let line = request.line
        #expect(try Request.parse(line[...]) == request, "written as \(line)")
    }

    @Test(
        "the documented lines parse to what they ask for",
        arguments: [
            (#"?TARE={"sensor":"left","grams":212.0};"#, Request.presetTare(sensor: "left", grams: 212)),
            (#"?TARE={"sensor":"left","name":"bowl"};"#, .useTare(sensor: "left", name: "bowl")),
            (#"?TARE={"sensor":"left"};"#, .tare(sensor: "left")),
            ("?TARES;", .tares(.list)),
            (#"?TARES={"save":"bowl","sensor":"left"};"#, .tares(.save(name: "bowl", sensor: "left", grams: nil))),
            (#"?TARES={"delete":"bowl"}"#, .tares(.delete(name: "bowl"))),
            (
                #"?ALERT={"name":"fruit-low","threshold":150,"hysteresis":20};"#,
                .setAlert(AlertChange(name: "fruit-low", threshold: 150, hysteresis: 20))
            )
        ])
    func parses(line: String, expected: Request) throws {
        #expect(try Request.parse(line[...]) == expected)
    }

    @Test(
        "malformed settings requests are refused with a message that says what to send",
        arguments: [
            (#"?TARE={"sensor":"left","grams":5,"name":"bowl"};"#, "not both"),
            (#"?TARES={"save":"bowl"};"#, "\"save\" needs \"sensor\""),
            (#"?TARES={"save":"bowl","sensor":"left","grams":3};"#, "one of them"),
            (#"?TARES={"delete":"bowl","grams":3};"#, "takes the name alone"),
            (#"?TARES={"save":"a","delete":"b"};"#, "not both"),
            (#"?ALERT={"name":"fruit-low"};"#, "needs \"threshold\" or \"hysteresis\""),
            (#"?ALERT={"name":"fruit-low","hysteresis":-1};"#, "use 0 or more grams"),
            (#"?ALERT={"name":"fruit-low","clear":true,"threshold":3};"#, "\"clear\" goes alone"),
            (#"?ALERT={"threshold":3};"#, "missing \"name\""),
            ("?ALERT;", "?ALERT needs a JSON argument")
        ])
    func refuses(line: String, mentions: String) {
        #expect {
            try Request.parse(line[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains(mentions) == true
        }
    }

    @Test("only listing the tare library is open to everyone; every other settings request changes state")
    func authorization() {
        #expect(Request.tares(.list).changesState == false)
        for request in Self.requests where request != .tares(.list) {
            #expect(request.changesState, "\(request.line) must be authorised as ?TARE is")
        }
    }

    @Test("a TARES report is written sorted as given and read back to the same value")
    func tareReportRoundTrips() throws {
        let report = Report.tares(
            TareLibraryReport(
                tares: [NamedTare(name: "bowl", grams: 212), NamedTare(name: "crate", grams: 1200.5)], changed: "bowl"))
        let line = report.line
        #expect(
            line == #"{"class":"TARES","tares":[{"name":"bowl","grams":212},{"name":"crate","grams":1200.5}],"#
                + #""changed":"bowl"}"# + "\n")
        #expect(try Report.decode(line.dropLast()) == report)
    }
}

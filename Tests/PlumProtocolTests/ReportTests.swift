import Testing

@testable import PlumProtocol

@Suite("Reports decoded on the client side")
struct ReportTests {
    @Test("the daemon's lines decode to their classes with every field a client needs")
    func decodesDaemonLines() throws {
        let weight =
            ##"{"class":"WEIGHT","sensor":"left","time":1795388111.110488,"grams":152.226,"display":"152.2 g","unit":"g","percent":39.539,"stable":true,"overload":false,"underload":false,"zero":false,"tare":0,"heaviest":true,"hue":142.34,"rgb":"#00ff5f","calibrated":true,"signal":369848}"##
        guard case .weight(let report) = try Report.decode(weight[...]) else {
            Issue.record("not a weight")
            return
        }
        #expect(
            report.sensor == "left" && report.grams == 152.226 && report.display == "152.2 g" && report.heaviest
                && report.rgb == "#00ff5f")

        let uncalibrated =
            ##"{"class":"WEIGHT","sensor":"r","time":1,"grams":null,"display":"uncalibrated","unit":"g","percent":null,"stable":false,"overload":false,"underload":false,"zero":false,"tare":0,"heaviest":false,"hue":0,"rgb":"#ff0000","calibrated":false,"reason":"not calibrated yet","signal":12}"##
        guard case .weight(let bare) = try Report.decode(uncalibrated[...]) else {
            Issue.record("not a weight")
            return
        }
        #expect(bare.grams == nil && bare.percent == nil && bare.reason == "not calibrated yet")
        #expect(report.flow == nil && bare.flow == nil, "a WEIGHT without flow (before 1.2) decoded with one")
    }

    @Test("a WEIGHT's flow is sent on the 0.01 g/s grid, never as -0, and decodes to the value sent")
    func flowOnItsGrid() throws {
        let make = { (flow: Double?) in
            WeightReport(
                sensor: "left", time: 1, grams: 10, display: "10.0 g", unit: "g", stable: false, overload: false,
                underload: false, zero: false, tare: 0, heaviest: false, hue: 0, rgb: "#ff0000", calibrated: true,
                division: 0.1, flow: flow)
        }
        for (flow, text) in [(2.345678, #","flow":2.35}"#), (-0.004, #","flow":0}"#), (-12.5, #","flow":-12.5}"#)] {
            let line = Report.weight(make(flow)).line
            #expect(line.hasSuffix(text + "\n"), "flow \(flow) g/s was sent as \(line)")
            #expect(try Report.decode(line.dropLast()[...]) == .weight(make(flow)), "\(line) did not round-trip")
        }
        #expect(!Report.weight(make(nil)).line.contains("flow"), "a WEIGHT without a rate still names flow")

        let refused =
            #"{"class":"ZERO","sensor":"left","ok":false,"reason":"outsideZeroRange","message":"zero refused: load is 152.2 g"}"#
        #expect(
            try Report.decode(refused[...])
                == .command(
                    CommandReply(
                        command: "ZERO", sensor: "left", ok: false, reason: "outsideZeroRange",
                        message: "zero refused: load is 152.2 g")))

        let fit =
            #"{"class":"CALIBRATE","sensor":"right","step":"fit","ok":true,"points":2,"grams":[0,100],"residuals":[0.001,-0.001],"quality":"good"}"#
        guard case .calibrate(let reply) = try Report.decode(fit[...]) else {
            Issue.record("not a calibration")
            return
        }
        #expect(reply.grams == [0, 100] && reply.residuals == [0.001, -0.001] && reply.saved == nil)

        #expect(try Report.decode(#"{"class":"OVERFLOW","dropped":118}"#[...]) == .overflow(dropped: 118))
        #expect(
            try Report.decode(#"{"class":"ERROR","message":"not permitted"}"#[...]) == .error(message: "not permitted"))
    }

    @Test(
        "a BUTTON report, done or refused, decodes to the gesture, action and outcome, and encodes to the same line",
        arguments: [
            #"{"class":"BUTTON","sensor":"left","gesture":"short","action":"tare","ok":true,"tare":102.5,"#
                + #""message":"tare done: 102.5 g","time":1795388111.25}"#,
            #"{"class":"BUTTON","sensor":"right","gesture":"long","action":"zero","ok":false,"reason":"notStable","#
                + #""message":"zero refused: the load was not stable within 10 s — keep the pan still","#
                + #""time":1795388112.5}"#
        ])
    func buttonRoundTrip(line: String) throws {
        guard case .button(let press) = try Report.decode(line[...]) else {
            Issue.record("\(line) did not decode as a BUTTON")
            return
        }
        let refused = line.contains(#""ok":false"#)
        #expect(press.gesture == (refused ? "long" : "short") && press.action == (refused ? "zero" : "tare"))
        #expect(press.ok == !refused && press.tare == (refused ? nil : 102.5) && press.offset == nil)
        #expect(press.reason == (refused ? "notStable" : nil), "reason: \(String(describing: press.reason))")
        #expect(press.message.hasPrefix(refused ? "zero refused: " : "tare done: "), "message: \(press.message)")
        #expect(Report.button(press).line == line + "\n", "the encoder's line differs from the documented one")
    }

    @Test("a class this client does not know is passed over by name, so a newer daemon does not break it")
    func unknownClass() throws {
        #expect(try Report.decode(#"{"class":"SKY","color":"blue"}"#[...]) == .unknown("SKY"))
    }

    @Test(
        "a line that is not a report, or a known report missing a field, is refused with a reason",
        arguments: [
            ("not json", "not a report"),
            (#"{"sensor":"left"}"#, "not a report"),
            (#"{"class":"TARE","sensor":"left"}"#, "a TARE report this client cannot read")
        ])
    func refusesBadLines(line: String, mentions: String) {
        #expect {
            try Report.decode(line[...])
        } throws: { error in
            "\(error)".contains(mentions)
        }
    }
}

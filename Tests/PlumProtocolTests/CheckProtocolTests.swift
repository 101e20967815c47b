import Testing

@testable import PlumProtocol

@Suite("?CHECK, its CHECK reply and the verdict in WEIGHT: parsed, refused, encoded and decoded alike")
struct CheckProtocolTests {
    @Test(
        "?CHECK with a target sets limits, without stops; both change state; the line is its inverse",
        arguments: [
            (
                #"?CHECK={"sensor":"left","target":100,"minus":2,"plus":5.5,"cue":true};"#,
                CheckRequest(sensor: "left", target: 100, minus: 2, plus: 5.5, cue: true)
            ),
            (#"?CHECK={"sensor":"left"};"#, CheckRequest(sensor: "left"))
        ])
    func parses(line: String, expected: CheckRequest) throws {
        let request = try Request.parse(line[...])
        #expect(request == .check(expected) && request.changesState && request.name == "?CHECK")
        #expect(request.line == line)
    }

    @Test(
        "a bad ?CHECK is refused, saying what is valid",
        arguments: [
            (#"?CHECK={"sensor":"left","target":-1};"#, "\"target\" is -1.0; use the target weight in grams"),
            (#"?CHECK={"sensor":"left","target":10,"minus":-2};"#, "\"minus\" is -2.0; use 0 or more grams"),
            (#"?CHECK={"sensor":"left","plus":2};"#, "go with a \"target\"")
        ])
    func refuses(line: String, mentions: String) {
        #expect {
            try Request.parse(line[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains(mentions) == true
        }
    }

    @Test("a CHECK reply and a WEIGHT with a verdict encode to their lines and back")
    func roundTrip() throws {
        let reply =
            #"{"class":"CHECK","sensor":"left","ok":true,"target":100,"minus":2,"plus":5,"#
            + #""message":"left: checking against 100.0 g; 98.0 g to 105.0 g is ok"}"#
        #expect(try Report.decode(reply[...]).line == reply + "\n")
        var weight = WeightReport(
            sensor: "left", time: 1, grams: 97.9, display: "97.9 g", unit: "g", stable: true, overload: false,
            underload: false, zero: false, tare: 0, heaviest: false, hue: 0, rgb: "#ff0000", calibrated: true,
            division: 0.1)
        weight.checked("under")
        #expect(Report.weight(weight).line.hasSuffix(#","check":"under"}"# + "\n"), "\(Report.weight(weight).line)")
        #expect(try Report.decode(Report.weight(weight).line.dropLast()[...]) == .weight(weight))
    }

    @Test("a borderline verdict and a withheld one encode to their lines and decode back equal")
    func borderlineAndWithheld() throws {
        var weight = WeightReport(
            sensor: "left", time: 1, grams: 98.04, display: "98.0 g", unit: "g", stable: true, overload: false,
            underload: false, zero: false, tare: 0, heaviest: false, hue: 0, rgb: "#ff0000", calibrated: true,
            division: 0.1)
        weight.checked("ok", borderline: true)
        let line = Report.weight(weight).line
        #expect(line.hasSuffix(#","check":"ok","borderline":true}"# + "\n"), "\(line)")
        #expect(try Report.decode(line.dropLast()[...]) == .weight(weight))
        var empty = weight
        empty.grams = 0
        empty.checked(nil, withheld: "the pan is empty")
        let emptyLine = Report.weight(empty).line
        #expect(emptyLine.hasSuffix(#","withheld":"the pan is empty"}"# + "\n"), "\(emptyLine)")
        #expect(!emptyLine.contains("borderline") && !emptyLine.contains(#""check""#))
        #expect(try Report.decode(emptyLine.dropLast()[...]) == .weight(empty))
        var counted = empty
        counted.checked(nil)
        counted.withheld = nil
        counted.counted(nil, ratio: nil, withheld: "below the minimum weight 2.0 g")
        #expect(try Report.decode(Report.weight(counted).line.dropLast()[...]) == .weight(counted))
    }
}

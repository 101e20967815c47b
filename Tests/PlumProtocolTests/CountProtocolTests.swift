import Testing

@testable import PlumProtocol

@Suite("?COUNT, its COUNT reply and the count in WEIGHT: parsed, refused, encoded and decoded alike")
struct CountProtocolTests {
    @Test(
        "?COUNT with pieces sets a reference, without stops counting; both change state; the line is its inverse",
        arguments: [
            (#"?COUNT={"sensor":"left","pieces":10};"#, CountRequest(sensor: "left", pieces: 10)),
            (#"?COUNT={"sensor":"left"};"#, CountRequest(sensor: "left")),
            (
                #"?COUNT={"sensor":"left","pieces":5,"optimize":true};"#,
                CountRequest(sensor: "left", pieces: 5, optimize: true)
            )
        ])
    func parses(line: String, expected: CountRequest) throws {
        let request = try Request.parse(line[...])
        #expect(request == .count(expected) && request.changesState && request.name == "?COUNT")
        #expect(request.line == line)
    }

    @Test("?COUNT with 0 pieces is refused, saying what is valid")
    func refusesZero() {
        #expect {
            try Request.parse(#"?COUNT={"sensor":"left","pieces":0};"#[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains("\"pieces\" is 0; use 1 to 1000000") == true
        }
    }

    @Test("a COUNT reply and a WEIGHT with a count or an ambiguous ratio encode to their lines and back")
    func roundTrip() throws {
        let reply =
            #"{"class":"COUNT","sensor":"left","ok":true,"pieces":10,"unit":0.3,"warning":"one piece weighs 3.0 d","#
            + #""message":"left: 10 pieces"}"#
        let decoded = try Report.decode(reply[...])
        #expect(decoded.line == reply + "\n")
        guard case .count(let count) = decoded else {
            Issue.record("not a COUNT")
            return
        }
        #expect(count.pieces == 10 && count.unit == 0.3 && count.warning == "one piece weighs 3.0 d")
        var weight = WeightReport(
            sensor: "left", time: 1, grams: 51.5, display: "51.5 g", unit: "g", stable: true, overload: false,
            underload: false, zero: false, tare: 0, heaviest: false, hue: 0, rgb: "#ff0000", calibrated: true,
            division: 0.1)
        weight.counted(nil, ratio: 20.6000001)
        #expect(Report.weight(weight).line.hasSuffix(#","count_ratio":20.6}"# + "\n"), "\(Report.weight(weight).line)")
        #expect(try Report.decode(Report.weight(weight).line.dropLast()[...]) == .weight(weight))
        weight.counted(20, ratio: nil)
        #expect(Report.weight(weight).line.hasSuffix(#","count":20}"# + "\n"))
        #expect(try Report.decode(Report.weight(weight).line.dropLast()[...]) == .weight(weight))
    }

    @Test("a WEIGHT whose count became the reference says count_reference_updated, and decodes back equal")
    func referenceUpdated() throws {
        var weight = WeightReport(
            sensor: "left", time: 1, grams: 40, display: "40.0 g", unit: "g", stable: true, overload: false,
            underload: false, zero: false, tare: 0, heaviest: false, hue: 0, rgb: "#ff0000", calibrated: true,
            division: 0.1)
        weight.counted(20, ratio: nil)
        weight.countReferenceUpdated = true
        let line = Report.weight(weight).line
        #expect(line.contains(#""count":20,"count_reference_updated":true"#), "\(line)")
        #expect(try Report.decode(line.dropLast()[...]) == .weight(weight))
    }
}

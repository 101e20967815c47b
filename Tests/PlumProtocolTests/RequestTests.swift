import Testing

@testable import PlumProtocol

@Suite("JSON protocol requests")
struct RequestTests {
    @Test(
        "well-formed requests parse to what they ask for",
        arguments: [
            ("?POLL;", Request.poll),
            ("?POLL", .poll),
            ("?DEVICES;\r", .devices),
            ("?VERSION;", .version),
            ("?WATCH={\"enable\":true};", .watch(WatchOptions(enable: true))),
            ("?WATCH;", .watch(WatchOptions(enable: true))),
            ("?WATCH={\"enable\":false}", .watch(WatchOptions(enable: false))),
            (
                "?WATCH={\"sensors\":[\"left\",\"right\"],\"raw\":true};",
                .watch(WatchOptions(enable: true, sensors: ["left", "right"], raw: true))
            ),
            ("?WATCH={\"binary\":true};", .watch(WatchOptions(binary: true))),
            ("?WATCH={\"changes\":true};", .watch(WatchOptions(changes: true))),
            ("?TARE={\"sensor\":\"left\"};", .tare(sensor: "left")),
            ("?ZERO={\"sensor\":\"right\"}", .zero(sensor: "right")),
            (
                "?CALIBRATE={\"sensor\":\"left\",\"step\":\"begin\"};",
                .calibrate(CalibrationRequest(sensor: "left", step: .begin))
            ),
            (
                "?CALIBRATE={\"sensor\":\"left\",\"step\":\"point\",\"grams\":100};",
                .calibrate(CalibrationRequest(sensor: "left", step: .point, grams: 100))
            ),
            (
                "?CALIBRATE={\"sensor\":\"left\",\"step\":\"fit\"};",
                .calibrate(CalibrationRequest(sensor: "left", step: .fit))
            )
        ])
    func parses(line: String, expected: Request) throws {
        #expect(try Request.parse(line[...]) == expected)
    }

    @Test(
        "malformed requests are refused with a message that says what to send",
        arguments: [
            ("POLL;", "starts with '?'"),
            ("?FLY;", "unknown request ?FLY; known: ?WATCH"),
            ("?TARE;", "?TARE needs a JSON argument"),
            ("?TARE={\"sensor\":3};", "\"sensor\" has the wrong type"),
            ("?TARE={};", "missing \"sensor\""),
            ("?WATCH={enable:true};", "not valid JSON"),
            ("?CALIBRATE={\"sensor\":\"l\",\"step\":\"point\"};", "needs \"grams\""),
            ("?CALIBRATE={\"sensor\":\"l\",\"step\":\"point\",\"grams\":-5};", "needs \"grams\""),
            ("?CALIBRATE={\"sensor\":\"l\",\"step\":\"zero\",\"grams\":5};", "goes with step \"point\" only"),
            ("?CALIBRATE={\"sensor\":\"l\",\"step\":\"jump\"};", "begin, zero, point, fit, commit, cancel or rollback")
        ])
    func refuses(line: String, mentions: String) {
        #expect {
            try Request.parse(line[...])
        } throws: { error in
            (error as? ProtocolError)?.message.contains(mentions) == true
        }
    }

    @Test("a line longer than the limit is refused, not parsed")
    func overlongLine() {
        let line = "?WATCH={\"sensors\":[\"" + String(repeating: "a", count: Request.maximumLineLength) + "\"]};"
        #expect(throws: ProtocolError("request longer than \(Request.maximumLineLength) bytes")) {
            try Request.parse(line[...])
        }
    }

    @Test("an error report is one JSON line with class ERROR and the message escaped")
    func errorReport() {
        let report = ProtocolError("bad \"quote\"\nand newline").report
        #expect(report == "{\"class\":\"ERROR\",\"message\":\"bad \\\"quote\\\"\\nand newline\"}\n")
    }
}

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("keys keep their order, numbers print plainly, non-finite numbers become null")
    func writes() {
        var inner = JSONWriter()
        inner.add("a", 1)
        var json = JSONWriter()
        json.add("class", "WEIGHT")
        json.add("grams", 100.25)
        json.add("whole", 385.0)
        json.add("raw", Int32(-8_388_608))
        json.add("stable", true)
        json.add("nan", Double.nan)
        json.add("names", strings: ["left", "right"])
        json.add("inner", object: inner)
        json.addNull("none")
        #expect(
            json.finished
                == #"{"class":"WEIGHT","grams":100.25,"whole":385,"raw":-8388608,"stable":true,"nan":null,"names":["left","right"],"inner":{"a":1},"none":null}"#
        )
    }

    @Test("control characters are escaped as \\u00XX")
    func controlCharacters() {
        #expect(JSONWriter.quote("a\u{01}b") == "\"a\\u0001b\"")
    }
}

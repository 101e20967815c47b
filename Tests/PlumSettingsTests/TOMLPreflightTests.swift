import Testing

@testable import PlumDaemonConfig
@testable import PlumSettings

/// Found by fuzzing (Tests/fuzz, target fuzz-config): a table header such as `[)`, or a `}`
/// where an array expects a value, failed an assertion in the TOML parser inside TOMLKit and
/// aborted the daemon, on start or on reload, and the MQTT bridge and web server with it.
@Suite("Mistakes the TOML parser cannot take")
struct TOMLPreflightTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var testDescription: String { text.debugDescription }
    }

    @Test(
        "a header whose name cannot start a key is refused with its line, not an abort",
        arguments: [
            Case(text: "[)", line: 1),
            Case(text: "[[)]]", line: 1),
            Case(text: "[ \t)", line: 1),
            Case(text: "[\n", line: 1),
            Case(text: "[\u{A0}scale]", line: 1),
            Case(text: "[scale]\ncapacity_grams = 385\n\n  [#]\n", line: 4),
            Case(text: "# [)\nname = \"[)\"\n[[sensor]]\n[=sensor]\n", line: 4),
            Case(text: "\u{FEFF}[:[\"scufsr_sideme [= \"left@\"\nkk = \"simulated-r\"\n", line: 1)
        ])
    func refused(_ example: Case) {
        #expect {
            try PlumConfiguration.parse(example.text, file: "fuzz.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == example.line && error.description.contains("fuzz.toml:\(example.line)")
                && error.message.contains("not valid TOML")
        }
    }

    @Test(
        "brackets in strings, comments, quoted names and multi-line arrays are not taken for headers",
        arguments: [
            "[scale]\n[[sensor]]\n[ \"quoted name\" ]\n['literal']\n[ a . b ]\n[-_9]\n",
            "a = [\n  [{ x = 1 }],\n  [\n    +1,\n  ],\n]\n",
            "a = \"\"\"\n[)\n\\\"\"\"\n[)\n\"\"\"\n",
            "a = '''\n[)\n'''\nb = \"\\\"[)\"\n",
            "a = \"\"\"x\"\"\"\"\"\n",
            "a = { b = [ 1 ] } # [)\n",
            "a = [ { b = 1 }, { c = [ 2 ] } ]\nb = [ \"}\", '}' ] # }\n",
            "a = [\n  { x = \"\"\"\n}\n\"\"\" },\n]\n",
            "a = 1979-05-27 07:32:00\nb = [ 1, 2, -3 ]\nc = { d = 1, e = 2 }\nf = 1 # 2 3\n1 = 2\n"
        ])
    func notHeaders(_ text: String) {
        #expect(TOMLPreflight.firstProblem(in: text) == nil, "a line of this valid TOML was taken for a bad header")
        // TOMLKit takes it too: what is left to refuse is only the keys PlumScale does not know.
        do {
            _ = try PlumConfiguration.parse(text, file: "valid.toml")
        } catch {
            #expect(!error.message.contains("not valid TOML"), "refused as TOML: \(error)")
        }
    }

    @Test("the next header after a multi-line array is still checked")
    func afterArray() {
        #expect(TOMLPreflight.firstProblem(in: "a = [\n  1,\n]\n[)\n")?.line == 4, "the header on line 4 was missed")
    }

    @Test(
        "a '}' where an array expects a value is refused with its line, not an abort",
        arguments: [
            Case(text: "yNEsE = [}[[[[[[[[[[[[[i2c-1=gpiochip03", line: 1),
            Case(text: "[scale]\nweights = [1, }\n", line: 2),
            Case(text: "a = [\n  1,\n  [ { b = 2 }, }\n]\n", line: 3),
            Case(text: "a = { b = [ } }\n", line: 1)
        ])
    func braceInArray(_ example: Case) {
        #expect(
            TOMLPreflight.firstProblem(in: example.text)
                == .init(line: example.line, message: TOMLPreflight.braceInArray))
        #expect {
            try PlumConfiguration.parse(example.text, file: "fuzz.toml")
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("fuzz.toml:\(example.line)") == true
        }
    }

    @Test(
        "a date or number followed by a space and one digit is refused with its line, not an abort",
        arguments: [
            Case(text: "since = 2024-01-01 1\n", line: 1),
            Case(text: "[daemon]\ncN=06\u{13}2-d--!2 1 \"left\"\n", line: 2),
            // toml++ reads on through a quote, so the stray digit hides behind what looks like a string.
            Case(text: "[daemon]\ncN=06\u{13}2-d--!\" 1 \"lefam\ni*n\"d_group = \"x =\n", line: 2),
            Case(text: "a = [2024-01-01 1, 2]\n", line: 1)
        ])
    func strayDigit(_ example: Case) {
        #expect(
            TOMLPreflight.firstProblem(in: example.text) == .init(line: example.line, message: TOMLPreflight.strayDigit)
        )
    }

    @Test("at the very end of the file the same mistake is toml++'s own error, which it reports without aborting")
    func strayDigitAtEnd() {
        #expect(
            TOMLPreflight.firstProblem(in: "a = 2024-01-01 1") == nil,
            "the pre-flight refused what toml++ reports itself")
        #expect(throws: ConfigurationError.self, "toml++ took a date followed by a stray digit") {
            try PlumConfiguration.parse("a = 2024-01-01 1", file: "end.toml")
        }
    }

    @Test(
        "the MQTT bridge and the web server read the same file through the same check",
        arguments: [
            "[)\n", "[mqtt]\nport = [ }\n"
        ])
    func everyReaderIsGuarded(_ text: String) {
        #expect(throws: ConfigurationError.self, "the MQTT bridge's reader") {
            try MQTTBridgeConfiguration.parse(text, file: "bridge.toml")
        }
        #expect(throws: ConfigurationError.self, "the web server's reader") {
            try WebSettings.parse(text, file: "web.toml")
        }
    }
}

import FoundationEssentials
import Testing

@testable import PlumProtocol

@Suite("JSON lines round-trip through a JSON decoder")
struct JSONWriterRoundTripTests {
    @Test(
        "strings with quotes, backslashes, control characters and non-ASCII letters survive a round trip",
        arguments: [
            "plain", "say \"hi\"", "back\\slash", "line\nbreak\ttab\r", "bell\u{07}", "Zwetschge é ü 🍑", ""
        ])
    func strings(_ text: String) throws {
        var json = JSONWriter()
        json.add("class", "TEST")
        json.add("text", text)
        let line = json.finished
        #expect(!line.contains("\n"), "one line, whatever the text")
        struct Decoded: Decodable { var text: String }
        #expect(try JSONDecoder().decode(Decoded.self, from: Data(line.utf8)).text == text)
    }

    @Test("numbers, flags, nulls, arrays and nested objects keep their order and types")
    func shapes() {
        var inner = JSONWriter()
        inner.add("n", 3)
        var json = JSONWriter()
        json.add("class", "X")
        json.add("whole", 5.0)
        json.add("half", 0.5)
        json.add("nan", Double.nan)
        json.add("ok", true)
        json.addNull("none")
        json.add("names", strings: ["a", "b"])
        json.add("values", numbers: [1, 2.5])
        json.add("codes", integers: [Int32(-1), 7])
        json.add("inner", object: inner)
        json.add("list", objects: [inner, inner])
        #expect(
            json.line
                == #"{"class":"X","whole":5,"half":0.5,"nan":null,"ok":true,"none":null,"names":["a","b"],"values":[1,2.5],"codes":[-1,7],"inner":{"n":3},"list":[{"n":3},{"n":3}]}"#
                + "\n")
    }
}

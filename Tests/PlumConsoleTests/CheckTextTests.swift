import PlumConsole
import PlumProtocol
import Testing

@Suite("The check-weighing lamps")
struct CheckTextTests {
    @Test("the lamps: green OK, yellow UNDER, red OVER on a colour terminal, plain words otherwise")
    func lamps() {
        #expect(CheckText.verdict("ok", colour: true) == "\u{1B}[1;32mOK\u{1B}[0m")
        #expect(CheckText.verdict("under", colour: true) == "\u{1B}[1;33mUNDER\u{1B}[0m")
        #expect(CheckText.verdict("over", colour: true) == "\u{1B}[1;31mOVER\u{1B}[0m")
        #expect(CheckText.verdict("over", colour: false) == "OVER")
    }
}

import Testing
@testable import PlumProtocol

@Suite("MT-SICS")
struct MTSICSTests {
    @Test("the level 0 and taring commands parse, with CR LF or a bare LF", arguments: [
        ("S\r\n", MTSICSCommand.stableWeight), ("SI\n", .immediateWeight), ("SIR", .immediateWeightRepeat),
        ("Z\r\n", .zero), ("ZI", .zeroImmediately), ("T", .tare), ("TI", .tareImmediately),
        ("TA", .tareQuery), ("TAC", .tareClear), ("@", .reset), ("I4", .inquiry(4)), ("I0", .inquiry(0)),
    ])
    func parses(line: String, command: MTSICSCommand) {
        #expect(MTSICSCommand.parse(line[...]) == command)
    }

    @Test("lower case and unknown commands are not commands (answered ES)", arguments: ["s", "XYZ", "", "S 1"])
    func unknown(line: String) {
        #expect(MTSICSCommand.parse(line[...]) == nil)
    }

    @Test("weight responses put the value right-aligned in 10 characters", arguments: [
        ("S", MTSICSResponse.Status.stable, 100.0, 2, "S S     100.00 g\r\n"),
        ("S", .dynamic, -0.04, 1, "S D        0.0 g\r\n"),
        ("S", .dynamic, -1.25, 1, "S D       -1.3 g\r\n"),
        ("S", .stable, 385.0, 1, "S S      385.0 g\r\n"),
        ("T", .stable, 12.345, 2, "T S      12.35 g\r\n"),
        ("S", .stable, 7.0, 0, "S S          7 g\r\n"),
    ])
    func weight(id: String, status: MTSICSResponse.Status, grams: Double, decimals: Int, line: String) {
        #expect(MTSICSResponse.weight(id: id, status: status, grams: grams, decimals: decimals) == line)
    }

    @Test("status-only and text responses match the balance formats")
    func statusResponses() {
        #expect(MTSICSResponse.notExecutable("S") == "S I\r\n")
        #expect(MTSICSResponse.overRange("S") == "S +\r\n")
        #expect(MTSICSResponse.underRange("Z") == "Z -\r\n")
        #expect(MTSICSResponse.done("Z") == "Z A\r\n")
        #expect(MTSICSResponse.text("I4", "0123456789") == "I4 A \"0123456789\"\r\n")
        #expect(MTSICSResponse.tareValue(grams: 20, decimals: 1) == "TA A       20.0 g\r\n")
    }

    @Test("I0 lists every implemented command, B until the last, which is A")
    func commandList() {
        let lines = MTSICSResponse.commandList().split(separator: "\r\n")
        #expect(lines.count == MTSICSCommand.implemented.count)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("I0 B ") })
        #expect(lines.last == "I0 A 1 \"TAC\"")
        #expect(lines.first == "I0 B 0 \"@\"")
    }
}

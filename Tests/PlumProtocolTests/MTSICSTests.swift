import Testing

@testable import PlumProtocol

@Suite("MT-SICS")
struct MTSICSTests {
    @Test(
        "the level 0 and taring commands parse, with CR LF or a bare LF",
        arguments: [
            ("S\r\n", MTSICSCommand.stableWeight), ("SI\n", .immediateWeight), ("SIR", .immediateWeightRepeat),
            ("Z\r\n", .zero), ("ZI", .zeroImmediately), ("T", .tare), ("TI", .tareImmediately),
            ("TA", .tareQuery), ("TAC", .tareClear), ("@", .reset), ("I4", .inquiry(4)), ("I0", .inquiry(0))
        ])
    func parses(line: String, command: MTSICSCommand) {
        #expect(MTSICSCommand.parse(line[...]) == command)
    }

    @Test(
        "TA with a value and the unit g presets the tare, padded as balances send it",
        arguments: [
            ("TA 25.00 g", 25.0), ("TA     12.5 g", 12.5), ("TA 0 g", 0), ("TA -1.0 g", -1)
        ])
    func tarePreset(line: String, grams: Double) {
        #expect(MTSICSCommand.parse(line[...]) == .tarePreset(grams: grams))
    }

    @Test(
        "a TA preset without a number or in another unit is a syntax error",
        arguments: ["TA 25 kg", "TA g", "TA 1e3 g", "TA 25", "TA nan g", "TA 1 2 g"])
    func badTarePreset(line: String) {
        #expect(MTSICSCommand.parse(line[...]) == nil)
    }

    @Test("lower case and unknown commands are not commands (answered ES)", arguments: ["s", "XYZ", "", "S 1"])
    func unknown(line: String) {
        #expect(MTSICSCommand.parse(line[...]) == nil)
    }

    @Test(
        "weight responses put the value right-aligned in 10 characters",
        arguments: [
            ("S", MTSICSResponse.Status.stable, 100.0, 2, "S S     100.00 g\r\n"),
            ("S", .dynamic, -0.04, 1, "S D        0.0 g\r\n"),
            ("S", .dynamic, -1.25, 1, "S D       -1.3 g\r\n"),
            ("S", .stable, 385.0, 1, "S S      385.0 g\r\n"),
            ("T", .stable, 12.345, 2, "T S      12.35 g\r\n"),
            ("S", .stable, 7.0, 0, "S S          7 g\r\n")
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
        #expect(MTSICSResponse.done("ZI", .dynamic) == "ZI D\r\n")
        #expect(MTSICSResponse.parameterError("TA") == "TA L\r\n")
        #expect(MTSICSResponse.texts("I1", ["01", "1.00", ""]) == "I1 A \"01\" \"1.00\" \"\"\r\n")
    }

    @Test("I0 lists every implemented command, B until the last, which is A")
    func commandList() {
        let lines = MTSICSResponse.commandList().split(separator: "\r\n")
        #expect(lines.count == MTSICSCommand.implemented.count)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("I0 B ") })
        #expect(lines.last == "I0 A 1 \"TAC\"")
        #expect(lines.first == "I0 B 0 \"@\"")
        #expect(lines.contains("I0 B 0 \"ZI\""), "ZI is a level 0 command")
        #expect(lines.contains("I0 B 1 \"T\""), "the taring commands are level 1")
    }
}

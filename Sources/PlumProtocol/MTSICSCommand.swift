/// A command of METTLER TOLEDO's Standard Interface Command Set (MT-SICS), level 0 and the
/// taring commands of level 1, as existing balance software sends them.
///
/// Commands are upper-case ASCII, parameters separated by one space, each line ended by CR LF
/// (a bare LF is accepted too).
public enum MTSICSCommand: Hashable, Sendable {
    /// `@`: cancel, reset; answered with the serial number like `I4`.
    case reset
    /// `I0`…`I4`: the implemented commands, MT-SICS level, balance data, software version, serial number.
    case inquiry(Int)
    /// `S`: the next stable weight.
    case stableWeight
    /// `SI`: the weight now, stable or not.
    case immediateWeight
    /// `SIR`: the weight now, repeated on every new reading until `@`.
    case immediateWeightRepeat
    /// `Z`: zero when stable.
    case zero
    /// `ZI`: zero now.
    case zeroImmediately
    /// `T`: tare when stable.
    case tare
    /// `TI`: tare now.
    case tareImmediately
    /// `TA`: query the tare weight.
    case tareQuery
    /// `TA 25.00 g`: preset the tare weight (grams only).
    case tarePreset(grams: Double)
    /// `TAC`: clear the tare.
    case tareClear

    /// The commands listed by `I0`, in order.
    public static let implemented = [
        "@", "I0", "I1", "I2", "I3", "I4", "S", "SI", "SIR", "Z", "ZI", "T", "TI", "TA", "TAC"
    ]

    /// Whether the command changes the balance's state (zero or tare), and so needs the peer to
    /// be authorized; weighing and inquiries are open to anyone who can connect.
    public var changesState: Bool {
        switch self {
        case .zero, .zeroImmediately, .tare, .tareImmediately, .tarePreset, .tareClear: true
        case .reset, .inquiry, .stableWeight, .immediateWeight, .immediateWeightRepeat, .tareQuery: false
        }
    }

    /// The command's identifier as sent, such as `TA`, for logs.
    public var identifier: String {
        switch self {
        case .reset: "@"
        case .inquiry(let number): "I\(number)"
        case .stableWeight: "S"
        case .immediateWeight: "SI"
        case .immediateWeightRepeat: "SIR"
        case .zero: "Z"
        case .zeroImmediately: "ZI"
        case .tare: "T"
        case .tareImmediately: "TI"
        case .tareQuery, .tarePreset: "TA"
        case .tareClear: "TAC"
        }
    }

    /// Parses one command line (without CR LF); nil for a command this balance does not know,
    /// which is answered `ES` (syntax error).
    public static func parse(_ line: Substring) -> MTSICSCommand? {
        var text = line
        while let last = text.last, last.isNewline { text.removeLast() }
        if text.hasPrefix("TA ") { return parseTarePreset(text.dropFirst(3)) }
        switch text {
        case "@": return .reset
        case "I0": return .inquiry(0)
        case "I1": return .inquiry(1)
        case "I2": return .inquiry(2)
        case "I3": return .inquiry(3)
        case "I4": return .inquiry(4)
        case "S": return .stableWeight
        case "SI": return .immediateWeight
        case "SIR": return .immediateWeightRepeat
        case "Z": return .zero
        case "ZI": return .zeroImmediately
        case "T": return .tare
        case "TI": return .tareImmediately
        case "TA": return .tareQuery
        case "TAC": return .tareClear
        default: return nil
        }
    }

    /// `TA <value> g`: one space-separated decimal number and the unit `g`, as MT-SICS writes
    /// it (the value may be padded with spaces, as balances send it).
    private static func parseTarePreset(_ arguments: Substring) -> MTSICSCommand? {
        let parts = arguments.split(separator: " ")
        guard parts.count == 2, parts[1] == "g",
            parts[0].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
            let grams = Double(parts[0]), grams.isFinite
        else { return nil }
        return .tarePreset(grams: grams)
    }
}

/// MT-SICS responses in the exact formats balances use.
///
/// A response with a weight is `ID Status WeightValue Unit`: the identifier, one status
/// character, the value right-aligned in 10 characters, and the unit; every line ends CR LF.
public enum MTSICSResponse {
    /// The status character of a weight response.
    public enum Status: String, Sendable {
        /// Stable weight.
        case stable = "S"
        /// Dynamic (not stable) weight, for `SI`/`SIR`.
        case dynamic = "D"
    }

    /// `S S     100.00 g`: a weight for `S`, `SI`, `SIR` (`id` "S"), `T`/`TI` ("T") or `TA` ("TA").
    public static func weight(id: String, status: Status, grams: Double, decimals: Int, unit: String = "g") -> String {
        "\(id) \(status.rawValue) \(rightAligned(fixed(grams, decimals: decimals), width: 10)) \(unit)\r\n"
    }

    /// `TA A     100.00 g`: the tare value (status A, "answer").
    public static func tareValue(grams: Double, decimals: Int, unit: String = "g") -> String {
        "TA A \(rightAligned(fixed(grams, decimals: decimals), width: 10)) \(unit)\r\n"
    }

    /// `S I`: command not executable now (busy, or no stability before the timeout).
    public static func notExecutable(_ id: String) -> String { "\(id) I\r\n" }
    /// `S +` / `Z +`: overload, or above the zero range.
    public static func overRange(_ id: String) -> String { "\(id) +\r\n" }
    /// `S -` / `Z -`: underload, or below the zero range.
    public static func underRange(_ id: String) -> String { "\(id) -\r\n" }
    /// `Z A`, `TAC A`: done.
    public static func done(_ id: String) -> String { "\(id) A\r\n" }
    /// `ZI S` / `ZI D`: done, with the load stable or dynamic at the time.
    public static func done(_ id: String, _ status: Status) -> String { "\(id) \(status.rawValue)\r\n" }
    /// `TA L`: understood but not executable with this parameter (a tare value out of range).
    public static func parameterError(_ id: String) -> String { "\(id) L\r\n" }
    /// `I1 A "01" "1.0" …`: an answer with several quoted texts.
    public static func texts(_ id: String, _ values: [String]) -> String {
        "\(id) A" + values.map { " \"\($0)\"" }.joined() + "\r\n"
    }
    /// `I4 A "text"`: an answer with one quoted text.
    public static func text(_ id: String, _ value: String) -> String { "\(id) A \"\(value)\"\r\n" }
    /// `I0 B 0 "S"` … `I0 A 0 "TAC"`: the command list, one line per command (B: more follow).
    public static func commandList() -> String {
        let commands = MTSICSCommand.implemented
        return commands.enumerated().map { index, command in
            "I0 \(index == commands.count - 1 ? "A" : "B") \(command.hasPrefix("T") ? 1 : 0) \"\(command)\"\r\n"
        }.joined()
    }
    /// `ES`: syntax error, the command is not known.
    public static let syntaxError = "ES\r\n"
    /// `EL`: logical error, the command cannot be carried out (no sensor, say).
    public static let logicalError = "EL\r\n"

    /// A value as it appears in a response, without the padding: `385.0`.
    public static func value(_ grams: Double, decimals: Int) -> String { fixed(grams, decimals: decimals) }

    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = UInt64(scaled / scale)
        let fraction = UInt64((scaled - Double(whole) * scale).rounded())
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let digits = String(fraction)
        return "\(sign)\(whole).\(String(repeating: "0", count: max(0, decimals - digits.count)))\(digits)"
    }

    static func rightAligned(_ text: String, width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

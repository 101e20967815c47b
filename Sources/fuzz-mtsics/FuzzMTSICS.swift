import FuzzSupport
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz target for MT-SICS commands: any line, trimmed as the daemon's MT-SICS session
/// trims it, must give a command or `nil` (answered `ES`), never a crash or a hang.
///
/// A normal build's `main` runs the inputs named on the command line once each (reproducing a
/// crash); under `-DFUZZING` libFuzzer provides `main` and calls `LLVMFuzzerTestOneInput`.
#if !FUZZING
    @main
#endif
enum FuzzMTSICS {
    static func main() {
        exit(FuzzReplay.main(CommandLine.arguments, run))
    }

    /// Parses one line and checks what the daemon relies on in a command it accepted.
    static func run(_ bytes: UnsafeRawBufferPointer) {
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\r" || text.last == " " { text.removeLast() }
        if text.isEmpty { return }
        guard let command = MTSICSCommand.parse(text[...]) else { return }
        _ = command.changesState
        switch command {
        case .tarePreset(let grams):
            // The daemon hands the value to the engine's range check: it must be a number.
            precondition(grams.isFinite, "TA accepted a value that is not a finite number: \(grams)")
        default:
            // A command without parameters is exactly its identifier.
            precondition(
                MTSICSCommand.parse(command.identifier[...]) == command,
                "\(command) does not parse back from its identifier \(command.identifier)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzMTSICS.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

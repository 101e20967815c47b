import FuzzSupport
import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz target for JSON requests: any line a client sends, as the daemon's session hands it
/// over, must give a request or a ``ProtocolError``, never a crash or a hang.
///
/// A normal build's `main` runs the inputs named on the command line once each (reproducing a
/// crash); under `-DFUZZING` libFuzzer provides `main` and calls `LLVMFuzzerTestOneInput`.
#if !FUZZING
    @main
#endif
enum FuzzRequest {
    static func main() {
        exit(FuzzReplay.main(CommandLine.arguments, run))
    }

    /// Parses one line; a refused line goes back to the client as an `ERROR` report.
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self)
        do {
            let request = try Request.parse(line[...])
            // What the daemon does next with every request: name it and check the peer's rights.
            _ = request.name
            _ = request.changesState
        } catch {
            // A refused line goes back to the client as an ERROR report, the message escaped.
            _ = error.report
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzRequest.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

import FuzzSupport
import PlumDrivers
import PlumSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz target for trace CSV: any file replayed as `[[sensor]] kind = "replay"` replays it
/// must give samples, then the end of the data or an error naming the line, never a crash or
/// a hang.
///
/// A normal build's `main` runs the inputs named on the command line once each (reproducing a
/// crash); under `-DFUZZING` libFuzzer provides `main` and calls `LLVMFuzzerTestOneInput`.
#if !FUZZING
    @main
#endif
enum FuzzTrace {
    static let scratch = ScratchDirectory()

    static func main() {
        exit(FuzzReplay.main(CommandLine.arguments, run))
    }

    /// Writes `bytes` as a trace file and replays every sample of sensor `left` in it.
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let path = scratch.write(bytes, to: "trace.csv")
        do {
            let replay = try TraceReplay(
                name: "fuzz", path: path, traceSensor: "left", realTime: false, clock: VirtualClock())
            while true { _ = try replay.next() }
        } catch {
            _ = error.description
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTrace.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

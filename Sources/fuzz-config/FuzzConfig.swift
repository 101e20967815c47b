import FuzzSupport
import PlumDaemonConfig
import PlumHardware

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz target for the configuration file: any file a user writes must give a
/// configuration or a ``ConfigurationError`` naming the place, never a crash or a hang.
///
/// A normal build's `main` runs the inputs named on the command line once each (reproducing a
/// crash); under `-DFUZZING` libFuzzer provides `main` and calls `LLVMFuzzerTestOneInput`.
#if !FUZZING
    @main
#endif
enum FuzzConfig {
    static func main() {
        exit(FuzzReplay.main(CommandLine.arguments, run))
    }

    /// Parses `bytes` as `PlumConfiguration.load(path:)` does (UTF-8 text only).
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        do {
            let configuration = try PlumConfiguration.parse(text, file: "fuzz.toml")
            // What opening an HX711 parses next: the chip and the two lines.
            for sensor in configuration.sensors {
                if case .hx711(let wiring) = sensor.wiring {
                    _ = try? GPIOChipSpec(parsing: wiring.chip)
                    _ = try? GPIOLineSpec(parsing: wiring.dout)
                    _ = try? GPIOLineSpec(parsing: wiring.sck)
                }
            }
        } catch {
            _ = error.description
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzConfig.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

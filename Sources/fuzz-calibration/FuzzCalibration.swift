import FoundationEssentials
import FuzzSupport
import PlumCore
import PlumStore

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz target for calibration files: a file in the state directory, loaded as the daemon
/// loads it at start, must give a calibration or an error naming the file, never a crash or a
/// hang. A file that loads goes into an engine that weighs with it, as the daemon's would.
///
/// A normal build's `main` runs the inputs named on the command line once each (reproducing a
/// crash); under `-DFUZZING` libFuzzer provides `main` and calls `LLVMFuzzerTestOneInput`.
#if !FUZZING
    @main
#endif
enum FuzzCalibration {
    static let scratch = ScratchDirectory()
    static let store = CalibrationStore(directory: scratch.path)
    /// The sensor of the example file `left-gain128.json`.
    static let left = SensorIdentity(id: "left", model: "HX711 + 1 kg cell", channel: "A", gain: 128)

    static func main() {
        exit(FuzzReplay.main(CommandLine.arguments, run))
    }

    /// Loads `bytes` as `left-gain128.json`. Almost no mutation keeps the checksum right, so a
    /// file the store refuses but that still decodes is written again with a right checksum
    /// (by the public encoder) and loaded too: that reaches the checks behind the checksum and
    /// the engine with a fuzzed model.
    static func run(_ bytes: UnsafeRawBufferPointer) {
        scratch.write(bytes, to: "left-gain128.json")
        let loaded = store.load(left)
        weigh(loaded, sensor: left)
        guard case .failure = loaded,
            let file = try? JSONDecoder().decode(CalibrationFile.self, from: Data(bytes)),
            case .success = file.payload.current.sensor.validate(),
            let signed = try? CalibrationFile(payload: file.payload).encoded()
        else { return }
        let sensor = file.payload.current.sensor
        _ = signed.withUnsafeBytes { scratch.write($0, to: "\(sensor.fileStem).json") }
        weigh(store.load(sensor), sensor: sensor)
        scratch.remove("\(sensor.fileStem).json")
    }

    /// What the station does with a loaded calibration: an engine with it, samples through it.
    static func weigh(_ loaded: Result<Calibration?, CalibrationStoreError>, sensor: SensorIdentity) {
        guard case .success(let calibration?) = loaded else {
            if case .failure(let error) = loaded { _ = error.description }
            return
        }
        guard var engine = try? WeighingEngine(sensor: sensor, kind: calibration.kind, calibration: calibration) else {
            return
        }
        // The points' own signals, then empty, and both ends of a 24-bit ADC.
        let signals = calibration.points.map(\.signal) + [0, -8_388_608, 8_388_607]
        for (index, signal) in signals.enumerated() {
            _ = engine.process(EngineInput(signal: signal, time: UInt64(index) * 12_500_000))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzCalibration.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

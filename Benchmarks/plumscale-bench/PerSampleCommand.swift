import ArgumentParser
import PlumCore
import PlumDrivers
import PlumProtocol
import PlumSimulation
import PlumStation

#if canImport(Glibc)
    import Glibc
#endif

/// The work of one sample end to end, in one process, for callgrind to count: the HX711
/// driver clocking the chip model on virtual time, the weighing engine, the WEIGHT report as
/// the daemon encodes it, and its write to a client's socket (a socketpair, drained).
struct PerSampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "per-sample", abstract: "Process N samples end to end in-process (for callgrind).",
        shouldDisplay: false)

    @Option(help: "How many samples.")
    var samples: Int = 1000

    /// How far each sample goes, so the cost of each stage is the difference of two counts.
    enum Stage: String, ExpressibleByArgument, CaseIterable {
        case driver, engine, client
    }

    @Option(
        help: ArgumentHelp(
            "driver (the chip model and the driver), engine (also the weighing engine), client (also the WEIGHT "
                + "report to a socket).")
    )
    var until: Stage = .client

    func run() throws {
        let driver = HX711Configuration(gain: .channelA128, rate: .sps80)
        let chip = HX711Model<VirtualClock>.Configuration()
        let simulated = try SimulatedHX711(load: ConstantLoad(grams: 150), driver: driver, chip: chip)
        let empty = Double(try SimulatedHX711<VirtualClock>.noiselessCode(grams: 0, driver: driver, chip: chip))
        let full = Double(try SimulatedHX711<VirtualClock>.noiselessCode(grams: 385, driver: driver, chip: chip))
        let identity = SensorIdentity(id: "pan", model: "simulated-hx711", gain: 128)
        let calibration = try CalibrationFit.fit(
            points: [CalibrationPoint(grams: 0, signal: empty), CalibrationPoint(grams: 385, signal: full)],
            sensor: identity, kind: .loadCell, configuration: ScaleConfiguration(), createdAt: "bench"
        ).get()
        var engine = try WeighingEngine(sensor: identity, kind: .loadCell, calibration: calibration)
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw BenchError("socketpair failed")
        }
        var drain = [UInt8](repeating: 0, count: 65_536)
        for index in 0..<samples {
            let sample = try simulated.sensor.next()
            guard until != .driver else { continue }
            let reading = engine.process(EngineInput(signal: sample.signal, time: sample.time.nanoseconds))
            guard until == .client else { continue }
            let line = Report.weight(
                ReportBuilder.weightReport(
                    reading, sensor: "pan", time: Double(sample.time.nanoseconds) / 1e9, heaviest: true)
            ).line
            _ = line.utf8.withContiguousStorageIfAvailable { send(pair[0], $0.baseAddress, $0.count, 0) }
            if index % 32 == 31 {
                _ = drain.withUnsafeMutableBytes { recv(pair[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
        }
        close(pair[0])
        close(pair[1])
    }
}

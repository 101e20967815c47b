public import PlumDrivers
public import PlumHardware
internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A simulated HX711 whose DOUT wire comes loose while a file exists: create the file and the
/// chip's DOUT stays high with no conversions (``HX711Fault/doutStuckHigh``), as with the wire
/// pulled or the board unpowered; delete it and conversions come again.
///
/// For trying a daemon's fault handling by hand and for end-to-end tests: the real driver sees
/// the fault on the model's lines exactly as it would on a Pi, and times out.
public final class UnpluggableHX711: SampleSource {
    private let simulated: SimulatedHX711<SystemMonotonicClock>
    public let switchFile: String
    private var unplugged = false

    public init(_ simulated: SimulatedHX711<SystemMonotonicClock>, switchFile: String) {
        self.simulated = simulated
        self.switchFile = switchFile
    }

    public var info: SourceInfo { simulated.sensor.info }
    public var statistics: DriverStatistics { simulated.sensor.statistics }

    public func next() throws(SensorError) -> Sample {
        let now = Syscalls.exists(switchFile)
        if now != unplugged {
            unplugged = now
            if now {
                simulated.model.inject(.doutStuckHigh, .from(simulated.clock.now()))
            } else {
                simulated.model.clearFaults()
            }
        }
        return try simulated.sensor.next()
    }
}

public import PlumHardware

/// A voltage channel of a kernel IIO driver (the kernel's `hx711` or `ti-ads1015`), read from
/// sysfs at a steady rate.
///
/// Per the IIO ABI a voltage is `(raw + offset) × scale` millivolts; that is the sample's
/// signal, and the raw value is kept as the code. The driver does the chip's timing, so this
/// reader just paces its reads on an absolute schedule (no drift from the read's own time).
public final class IIOSensor<Time: MonotonicClock>: SampleSource {
    public let info: SourceInfo
    public private(set) var statistics = DriverStatistics()

    public let device: IIODevice
    public let channel: IIOChannel
    /// Millivolts per count, read when the sensor was opened.
    public let scale: Double
    /// Counts added before scaling.
    public let offset: Double

    private let clock: Time
    private let period: UInt64
    private var nextRead: MonotonicInstant?

    /// Opens `channel` of `device` (an `iio:deviceN` id or a device name) under `root`.
    /// - Throws: ``SensorError/hardware(sensor:_:)`` naming the device or attribute file.
    public init(
        name: String, device spec: String, channel: Int, root: String = IIODevice.defaultRoot,
        pollRate: Double, clock: Time
    ) throws(SensorError) {
        do {
            device = try IIODevice(spec, root: root)
            self.channel = IIOChannel(channel)
            // Reading once first proves the channel exists, and its error lists the ones that do.
            _ = try device.raw(self.channel)
            scale = try device.scale(self.channel)
            offset = try device.offset(self.channel)
        } catch {
            throw .hardware(sensor: name, error)
        }
        self.clock = clock
        let rate = pollRate > 0 ? pollRate : 10
        period = UInt64(1e9 / rate)
        info = SourceInfo(
            name: name, kind: "iio", wiring: "\(device) \(self.channel), scale \(scale) mV",
            signal: .millivolts, nominalRate: rate)
    }

    public func next() throws(SensorError) -> Sample {
        let now = clock.now()
        let due = nextRead ?? now
        if due > now { clock.sleep(until: due) }
        // Keep the grid, but never try to catch up on reads missed while the consumer was away.
        let after = clock.now()
        var following = due.advanced(byNanoseconds: period)
        if following < after { following = after.advanced(byNanoseconds: period) }
        nextRead = following
        let raw: Int
        do {
            raw = try device.raw(channel)
        } catch {
            throw .hardware(sensor: info.name, error)
        }
        statistics.hardwareOperations &+= 1
        statistics.published &+= 1
        let code = Int32(clamping: raw)
        return Sample(raw: code, signal: (Double(raw) + offset) * scale, time: clock.now())
    }
}

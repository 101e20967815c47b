package import PlumDrivers
internal import PlumHardware
internal import PlumSimulation

/// How many GPIO operations the HX711 driver performs per sample: the floor a Pi pays in
/// system calls, since through libgpiod each line set or get, each wait and each event read
/// is one ioctl or poll.
///
/// Counted by wrapping the chip model's lines in counting lines and letting the real driver
/// read from them on virtual time, so the figure is exact and the same on every machine.
package struct GPIOOperationCount: Hashable, Sendable {
    package var samples = 0
    /// PD_SCK set high or low.
    package var clockSets = 0
    /// DOUT level reads.
    package var dataGets = 0
    /// Waits for a DOUT edge (one poll each).
    package var edgeWaits = 0
    /// Reads of pending edge events (one read each).
    package var edgeReads = 0

    package var total: Int { clockSets + dataGets + edgeWaits + edgeReads }
    package var perSample: Double { samples > 0 ? Double(total) / Double(samples) : 0 }

    /// Reads `samples` conversions at `rate` and gain `gain` through counting lines.
    package static func measure(samples: Int, rate: HX711Rate = .sps80, gain: HX711Gain = .channelA128) throws
        -> GPIOOperationCount
    {
        let counter = Counter()
        let clock = VirtualClock()
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.rate = rate
        let model = HX711Model(clock: clock, load: ConstantLoad(grams: 100), configuration: chip)
        let sensor = try HX711Sensor(
            name: "count", wiring: "counting lines",
            clockLine: CountingOutputLine(line: model.clockLine, counter: counter),
            dataLine: CountingEdgeLine(line: model.dataLine, counter: counter), time: clock,
            configuration: HX711Configuration(gain: gain, rate: rate))
        // The first conversions settle the chip and are discarded; count the steady state.
        for _ in 0..<8 { _ = try sensor.next() }
        counter.reset()
        for _ in 0..<samples { _ = try sensor.next() }
        var result = counter.count
        result.samples = samples
        return result
    }

    /// The tally the counting lines share (one thread: the benchmark's).
    final class Counter {
        var count = GPIOOperationCount()
        func reset() { count = GPIOOperationCount() }
    }
}

/// An output line that counts its operations, then passes them on.
struct CountingOutputLine<Line: GPIOOutputLine>: GPIOOutputLine {
    let line: Line
    let counter: GPIOOperationCount.Counter

    func setValue(_ active: Bool) throws(HardwareError) {
        counter.count.clockSets += 1
        try line.setValue(active)
    }
}

/// An edge-reporting input line that counts its operations, then passes them on.
struct CountingEdgeLine<Line: GPIOEdgeLine>: GPIOEdgeLine {
    let line: Line
    let counter: GPIOOperationCount.Counter

    func value() throws(HardwareError) -> Bool {
        counter.count.dataGets += 1
        return try line.value()
    }

    func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
        counter.count.edgeWaits += 1
        return try line.waitForEdgeEvents(timeout: timeout)
    }

    @discardableResult
    func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int {
        counter.count.edgeReads += 1
        return try line.readEdgeEvents(into: &events)
    }
}

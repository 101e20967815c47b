import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("ADS1115 model ALERT/RDY pin and faults")
struct ADS1115ModelAlertTests {
    func enableReady(_ model: ADS1115Model<VirtualClock>) throws {
        try model.writeBigEndianWord(register: 0x02, 0x0000)
        try model.writeBigEndianWord(register: 0x03, 0x8000)
    }

    @Test("continuous mode pulses ALERT/RDY low for 8 µs at the end of each conversion")
    func continuousPulses() throws {
        let (clock, model) = instantModel()
        try enableReady(model)
        let start = clock.now()
        let config = ADS1115Config(mux: .ain0, mode: .continuous, comparatorQueue: .assertAfterOne)
        try model.writeBigEndianWord(register: 0x01, config.registerValue)
        let pin = model.alertPin
        var events: [EdgeEvent] = []
        let period = ADS1115Config.DataRate.sps128.nominalConversionNanoseconds
        for _ in 0..<3 {
            #expect(try pin.waitForEdgeEvents(timeout: .milliseconds(20)))
            try pin.readEdgeEvents(into: &events)
            clock.advance(byNanoseconds: 10_000)
            try pin.readEdgeEvents(into: &events)
        }
        #expect(events.map(\.kind) == [.falling, .rising, .falling, .rising, .falling, .rising])
        for (index, pair) in stride(from: 0, to: events.count, by: 2).enumerated() {
            let fall = events[pair].timestamp
            #expect(fall.nanoseconds(since: start) == UInt64(index + 1) * period, "one edge per 1/128 s")
            #expect(events[pair + 1].timestamp.nanoseconds(since: fall) == 8_000)
        }
    }

    @Test("in single-shot mode ALERT/RDY follows OS: released at the start, asserted at the end")
    func singleShotFollowsOS() throws {
        let (_, model) = instantModel()
        try enableReady(model)
        let config = ADS1115Config(mux: .ain0, comparatorQueue: .assertAfterOne)
        try model.writeBigEndianWord(register: 0x01, config.registerValue)
        let pin = model.alertPin
        #expect(try pin.value() == false, "idle with OS = 1: asserted low")
        var events: [EdgeEvent] = []
        try pin.readEdgeEvents(into: &events)
        events.removeAll()
        try model.writeBigEndianWord(register: 0x01, config.registerValue | 0x8000)
        #expect(try pin.value() == true, "converting: released")
        #expect(try pin.waitForEdgeEvents(timeout: .milliseconds(20)))
        try pin.readEdgeEvents(into: &events)
        #expect(events.map(\.kind) == [.rising])
        events.removeAll()
        #expect(try pin.waitForEdgeEvents(timeout: .milliseconds(20)))
        try pin.readEdgeEvents(into: &events)
        #expect(events.map(\.kind) == [.falling])
        #expect(try model.readBigEndianWord(register: 0x01) & 0x8000 != 0)
    }

    @Test("with COMP_QUE = 11b the pin stays high and reports no edges")
    func disabledComparatorIsQuiet() throws {
        let (_, model) = instantModel()
        try enableReady(model)
        try model.writeBigEndianWord(
            register: 0x01, ADS1115Config(mode: .continuous, comparatorQueue: .disabled).registerValue)
        #expect(try model.alertPin.waitForEdgeEvents(timeout: .milliseconds(50)) == false)
        #expect(try model.alertPin.value() == true)
        #expect(model.conversionsCompleted > 0)
    }

    @Test("a stuck conversion never sets OS and never pulses the pin")
    func stuckConversion() throws {
        let (clock, model) = instantModel()
        try enableReady(model)
        model.conversionStuck = true
        let config = ADS1115Config(comparatorQueue: .assertAfterOne)
        try model.writeBigEndianWord(register: 0x01, config.registerValue | 0x8000)
        var events: [EdgeEvent] = []
        try model.alertPin.readEdgeEvents(into: &events)
        events.removeAll()
        #expect(try model.alertPin.waitForEdgeEvents(timeout: .seconds(1)) == false)
        clock.advance(by: .seconds(1))
        #expect(try model.readBigEndianWord(register: 0x01) & 0x8000 == 0)
        #expect(model.conversionsCompleted == 0)
    }

    @Test("a NACK fails every transfer with ENXIO in the words a real bus uses; EREMOTEIO can stand in for i2c-bcm2835")
    func noAcknowledge() throws {
        let (_, model) = instantModel()
        model.inject(.noAcknowledge())
        for _ in 0..<3 {
            #expect {
                _ = try model.readWord(register: 0x01)
            } throws: { error in
                let error = error as! HardwareError
                return error.errno == .noSuchDeviceOrAddress && error.subject == "i2c-1 address 0x48"
                    && error.description
                        == "reading word 0x01 at i2c-1 address 0x48: No such device or address (ENXIO); "
                        + "no device answered; check wiring, power and the address with i2cdetect -y 1"
            }
        }
        model.inject(.noAcknowledge(errno: .remoteIOError))
        #expect(throws: HardwareError.self) { try model.writeWord(register: 0x01, 0) }
        model.clearFaults()
        #expect(try model.readBigEndianWord(register: 0x01) == 0x8583)
        #expect(model.transfers == 5)
    }

    @Test("transient EIO fails exactly the next N transfers and changes no register")
    func transientIOError() throws {
        let (_, model) = instantModel()
        model.inject(.transientIOError(count: 2))
        #expect(throws: HardwareError.self) { try model.writeBigEndianWord(register: 0x03, 0x1234) }
        #expect(throws: HardwareError.self) { try model.readWord(register: 0x01) }
        #expect(try model.readBigEndianWord(register: 0x03) == 0x7FFF)
    }

    @Test("a real-time model on the system clock converts in real time")
    func realTime() throws {
        let clock = SystemMonotonicClock()
        let model = ADS1115Model(clock: clock)
        model.connect(ConstantVolts(0.25), to: .ain0)
        var chip = ADS1115(bus: model, clock: clock, readyLine: model.alertPin)
        let conversion = try chip.read(ADS1115Config(mux: .ain0, dataRate: .sps860))
        #expect(abs(Int(conversion.code) - 4000) <= 3)
        #expect(model.conversionsCompleted >= 1)
    }
}

import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("ADS1115 model digital comparator")
struct ADS1115ModelComparatorTests {
    /// Runs continuous conversions at 128 SPS of an input that follows `volts` (indexed by
    /// conversion), returning the ALERT/RDY level after each one (true = high).
    func pinLevels(
        _ volts: [Double], config: ADS1115Config, low: Double, high: Double, readConversionAfter: Set<Int> = []
    ) throws -> [Bool] {
        let (clock, model) = instantModel()
        model.noiseEnabled = false
        let origin = clock.now()
        let period = ADS1115Config.DataRate.sps128.nominalConversionNanoseconds
        model.connect(
            VoltageFunction { time in
                volts[min(volts.count - 1, Int(time.nanoseconds(since: origin) / period))]
            }, to: .ain0)
        let lsb = config.gain.lsbVolts
        try model.writeBigEndianWord(register: 0x02, UInt16(bitPattern: Int16(low / lsb)))
        try model.writeBigEndianWord(register: 0x03, UInt16(bitPattern: Int16(high / lsb)))
        try model.writeBigEndianWord(register: 0x01, config.registerValue)
        var levels: [Bool] = []
        for index in 1...volts.count {
            clock.sleep(until: origin.advanced(byNanoseconds: UInt64(index) * period + 1))
            if readConversionAfter.contains(index - 1) { _ = try model.readWord(register: 0x00) }
            levels.append(try model.alertPin.value())
        }
        return levels
    }

    @Test("traditional mode asserts above Hi_thresh and releases only below Lo_thresh")
    func traditional() throws {
        let config = ADS1115Config(mux: .ain0, mode: .continuous, comparatorQueue: .assertAfterOne)
        let levels = try pinLevels([0.2, 1.2, 0.8, 0.4, 0.8], config: config, low: 0.5, high: 1.0)
        // Active low: false is asserted. 0.8 V between the thresholds keeps the state.
        #expect(levels == [true, false, false, true, true])
    }

    @Test("COMP_QUE waits for two conversions beyond the threshold")
    func queue() throws {
        let config = ADS1115Config(mux: .ain0, mode: .continuous, comparatorQueue: .assertAfterTwo)
        let levels = try pinLevels([1.2, 0.2, 1.2, 1.2, 1.2], config: config, low: 0.5, high: 1.0)
        #expect(levels == [true, true, true, false, false])
    }

    @Test("a latching window comparator holds until Conversion is read")
    func latchingWindow() throws {
        let config = ADS1115Config(
            mux: .ain0, mode: .continuous, comparatorMode: .window, comparatorPolarity: .activeHigh,
            comparatorLatch: .latching, comparatorQueue: .assertAfterOne)
        let held = try pinLevels([0.7, 0.2, 0.7, 0.7], config: config, low: 0.5, high: 1.0)
        #expect(held == [false, true, true, true], "active high: asserted outside the window, then latched")
        let cleared = try pinLevels([0.7, 0.2, 0.7, 0.7], config: config, low: 0.5, high: 1.0, readConversionAfter: [2])
        #expect(
            cleared == [false, true, false, false], "reading Conversion clears the latch while the input is back inside"
        )
    }
}

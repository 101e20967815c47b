import PlumHardware
import PlumProbe
import PlumSimulation
import Testing

/// The ADS1115 scan over the simulated chip's SMBus: found by its reset value, never written.
@Suite("ADS1115 found by reading its Config register only")
struct ADS1115FindingTests {
    @Test("a chip fresh from power-on is found by 8583h, and nothing is written to it")
    func foundAtReset() throws {
        let chip = ADS1115Model(clock: VirtualClock(), busNumber: 1, address: 0x49)
        let found = ADS1115Finding.probe(bus: 1, address: 0x49) { (_: UInt8) throws(HardwareError) in chip }
        #expect(found.state == .ads1115AtReset)
        #expect(found.config == 0x8583)
        #expect(chip.lastTransfer?.direction == .read)
        #expect(chip.lastTransfer?.command == 0x01, "the Config register's pointer")
        #expect(chip.transfers == 1, "one read, no write")
        #expect(found.description == "i2c-1 0x49: ADS1115 (Config 8583h, its power-on value)")
    }

    @Test("a chip configured since power-on answers with another value and is left as it is")
    func configuredChip() throws {
        let chip = ADS1115Model(clock: VirtualClock())
        // ±4.096 V instead of ±2.048 V, written with OS 0 (start nothing); OS reads back as 1, "not
        // converting" (SBAS444 §9.6.3), so the register reads C383h.
        try chip.writeBigEndianWord(register: 0x01, 0x4383)
        let before = chip.transfers
        let found = ADS1115Finding.probe(bus: 1, address: 0x48) { (_: UInt8) throws(HardwareError) in chip }
        #expect(found.state == .answeredOtherValue)
        #expect(found.config == 0xC383)
        #expect(chip.transfers == before + 1)
        #expect(chip.lastTransfer?.direction == .read)
        #expect(found.description.contains("Config C383h, not the ADS1115's power-on 8583h"))
    }

    @Test(
        "an address NAK (ENXIO; EREMOTEIO on the Pi; ENODEV from i2c-stub) is nothing there",
        arguments: [
            Errno.noSuchDeviceOrAddress, Errno.remoteIOError, Errno.noSuchDevice
        ])
    func absent(_ errno: Errno) {
        let chip = ADS1115Model(clock: VirtualClock(), address: 0x4B)
        chip.inject(.noAcknowledge(errno: errno))
        let found = ADS1115Finding.probe(bus: 1, address: 0x4B) { (_: UInt8) throws(HardwareError) in chip }
        #expect(found.state == .absent)
        #expect(found.description == "i2c-1 0x4b: nothing answers")
    }

    @Test("an address a kernel driver owns is an error that names it, not an absence")
    func busy() {
        let found = ADS1115Finding.probe(bus: 1, address: 0x48) {
            (_: UInt8) throws(HardwareError) -> ADS1115Model<VirtualClock> in
            throw HardwareError(.systemCall, operation: "selecting", subject: "i2c-1 address 0x48", errno: .deviceBusy)
        }
        #expect(found.state == .error)
        #expect(found.error?.contains("i2c-1 address 0x48") == true)
    }

    @Test("a scan looks at 0x48, 0x49, 0x4A and 0x4B and finds the one chip there")
    func scan() {
        let chip = ADS1115Model(clock: VirtualClock(), address: 0x4A)
        let silent = ADS1115Model(clock: VirtualClock())
        silent.inject(.noAcknowledge())
        let found = ADS1115Finding.scan(bus: 1) { (address: UInt8) throws(HardwareError) in
            address == 0x4A ? chip : silent
        }
        #expect(found.map(\.address) == [0x48, 0x49, 0x4A, 0x4B])
        #expect(found.map(\.state) == [.absent, .absent, .ads1115AtReset, .absent])
    }
}

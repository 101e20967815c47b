import PlumHardware
import PlumSimulation
import PlumTestSupport
import Testing

@testable import PlumDrivers

#if canImport(Glibc)
    import Glibc
#endif

/// A fake `/sys/bus/iio/devices` tree laid out as the kernel's ti-ads1015 driver makes it.
struct FakeIIOTree {
    let directory: TemporaryDirectory
    var root: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "plumscale-iio")
        mkdir("\(root)/iio:device0", 0o755)
        write("iio:device0/name", "ads1115\n")
        write("iio:device0/in_voltage0_raw", "1000\n")
        write("iio:device0/in_voltage0_scale", "0.125000000\n")
        write("iio:device0/in_voltage1_raw", "-20\n")
        write("iio:device0/in_voltage1_scale", "0.125000000\n")
    }

    func write(_ relative: String, _ text: String) {
        let file = fopen("\(root)/\(relative)", "w")!
        fputs(text, file)
        fclose(file)
    }
}

@Suite("IIO sensor")
struct IIOSensorTests {
    @Test("samples are (raw + offset) × scale millivolts, paced on the poll grid")
    func readsAndPaces() throws {
        let tree = try FakeIIOTree()
        let clock = VirtualClock()
        let sensor = try IIOSensor(
            name: "adc", device: "ads1115", channel: 0, root: tree.root, pollRate: 10, clock: clock)
        let first = try sensor.next()
        #expect(first.raw == 1000)
        #expect(first.signal == 125.0)
        tree.write("iio:device0/in_voltage0_raw", "-8\n")
        let second = try sensor.next()
        #expect(second.raw == -8)
        #expect(second.signal == -1.0)
        #expect(second.time.nanoseconds(since: first.time) == 100_000_000)
        #expect(sensor.info.signal == .millivolts)
        #expect(sensor.info.wiring.contains("iio:device0"))
        #expect(sensor.statistics.published == 2)
    }

    @Test("an offset file is applied before the scale")
    func offset() throws {
        let tree = try FakeIIOTree()
        tree.write("iio:device0/in_voltage1_offset", "4\n")
        let sensor = try IIOSensor(
            name: "adc", device: "iio:device0", channel: 1, root: tree.root, pollRate: 10, clock: VirtualClock())
        #expect(try sensor.next().signal == (-20 + 4) * 0.125)
    }

    @Test("a channel the device does not have is refused when opened, naming the channels there are")
    func missingChannel() throws {
        let tree = try FakeIIOTree()
        #expect {
            try IIOSensor(
                name: "adc", device: "ads1115", channel: 3, root: tree.root, pollRate: 10, clock: VirtualClock())
        } throws: { error in
            let text = String(describing: error)
            return text.contains("in_voltage3") && text.contains("voltage0") && text.contains("voltage1")
        }
    }

    @Test("a device that is not there is refused naming the devices there are")
    func missingDevice() throws {
        let tree = try FakeIIOTree()
        #expect {
            try IIOSensor(
                name: "adc", device: "hx711", channel: 0, root: tree.root, pollRate: 10, clock: VirtualClock())
        } throws: { error in
            String(describing: error).contains("hx711") && String(describing: error).contains("ads1115")
        }
    }
}

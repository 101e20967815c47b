import PlumHardware
import PlumTestSupport
import Testing

/// A fake `/sys/bus/iio/devices` laid out as the kernel's ads1015 and hx711 drivers lay it out.
struct FakeIIOTree {
    let directory: TemporaryDirectory
    var root: String { directory.path + "/devices" }

    init() throws {
        directory = try TemporaryDirectory()
        // ads1015 driver (ADS1115): per-channel scale and sampling frequency, differential pairs.
        try directory.write("devices/iio:device0/name", "ads1015\n")
        try directory.write("devices/iio:device0/in_voltage0_raw", "1234\n")
        try directory.write("devices/iio:device0/in_voltage0_scale", "0.125000000\n")
        try directory.write("devices/iio:device0/in_voltage0_sampling_frequency", "128\n")
        try directory.write("devices/iio:device0/in_voltage1_raw", "-42\n")
        try directory.write("devices/iio:device0/in_voltage1_scale", "0.062500000\n")
        try directory.write("devices/iio:device0/in_voltage0-voltage1_raw", "-17\n")
        try directory.write("devices/iio:device0/in_voltage0-voltage1_scale", "0.187500000\n")
        // hx711 driver: raw per channel, scale shared by type, gains as scale_available.
        try directory.write("devices/iio:device1/name", "hx711\n")
        try directory.write("devices/iio:device1/in_voltage0_raw", "8388607\n")
        try directory.write("devices/iio:device1/in_voltage1_raw", "12\n")
        try directory.write("devices/iio:device1/in_voltage_scale", "0.000152590\n")
        try directory.write("devices/iio:device1/in_voltage0_scale_available", "0.000152590 0.000305180 \n")
        try directory.write("devices/iio:device1/in_voltage1_scale_available", "0.000610360 \n")
        try directory.write("devices/iio:device1/in_voltage_offset", "-8\n")
        // Something that is not an IIO device.
        try directory.write("devices/trigger0/name", "sysfstrig0\n")
    }
}

@Suite("IIO devices over a sysfs tree")
struct IIODeviceTests {
    @Test("devices are listed in device order with their driver names, ignoring non-devices")
    func listing() throws {
        let tree = try FakeIIOTree()
        let devices = try IIODevice.all(root: tree.root)
        #expect(devices.map(\.description) == ["iio:device0 [ads1015]", "iio:device1 [hx711]"])
    }

    @Test("a device is found by its entry or by its name file")
    func lookup() throws {
        let tree = try FakeIIOTree()
        #expect(try IIODevice("hx711", root: tree.root).id == "iio:device1")
        #expect(try IIODevice("iio:device0", root: tree.root).name == "ads1015")
    }

    @Test("an unknown device is not-found and lists the devices that exist")
    func unknownDevice() throws {
        let tree = try FakeIIOTree()
        let error = #expect(throws: HardwareError.self) { try IIODevice("ads1115", root: tree.root) }
        #expect(error?.code == .notFound)
        #expect(error?.hint == "devices here: iio:device0 [ads1015], iio:device1 [hx711]")
    }

    @Test("with no IIO root at all, lookup says to load a driver")
    func noRoot() throws {
        let directory = try TemporaryDirectory()
        #expect(try IIODevice.all(root: directory.path + "/none").isEmpty)
        let error = #expect(throws: HardwareError.self) { try IIODevice("hx711", root: directory.path + "/none") }
        #expect(error?.hint?.contains("load the driver") == true)
    }

    @Test("voltage channels come from the _raw files, single-ended and differential, sorted")
    func channels() throws {
        let tree = try FakeIIOTree()
        let ads = try IIODevice("ads1015", root: tree.root)
        #expect(try ads.voltageChannels().map(\.description) == ["voltage0", "voltage0-voltage1", "voltage1"])
    }

    @Test("raw counts are read as signed integers")
    func raw() throws {
        let tree = try FakeIIOTree()
        let ads = try IIODevice("ads1015", root: tree.root)
        #expect(try ads.raw(IIOChannel(0)) == 1234)
        #expect(try ads.raw(IIOChannel(1)) == -42)
        #expect(try ads.raw(IIOChannel(0, minus: 1)) == -17)
    }

    @Test("a per-channel scale wins; otherwise the shared in_voltage_scale applies")
    func scale() throws {
        let tree = try FakeIIOTree()
        let ads = try IIODevice("ads1015", root: tree.root)
        #expect(try ads.scale(IIOChannel(1)) == 0.0625)
        #expect(try ads.scale(IIOChannel(0, minus: 1)) == 0.1875)
        let hx = try IIODevice("hx711", root: tree.root)
        #expect(try hx.scale(IIOChannel(0)) == 0.00015259)
        #expect(try hx.scale(IIOChannel(1)) == 0.00015259)
    }

    @Test("offset defaults to 0 and reads the shared in_voltage_offset when present")
    func offset() throws {
        let tree = try FakeIIOTree()
        #expect(try IIODevice("ads1015", root: tree.root).offset(IIOChannel(0)) == 0)
        #expect(try IIODevice("hx711", root: tree.root).offset(IIOChannel(0)) == -8)
    }

    @Test("sampling frequency is read where the driver has one and nil where it has none")
    func samplingFrequency() throws {
        let tree = try FakeIIOTree()
        #expect(try IIODevice("ads1015", root: tree.root).samplingFrequency(IIOChannel(0)) == 128)
        #expect(try IIODevice("hx711", root: tree.root).samplingFrequency(IIOChannel(0)) == nil)
    }

    @Test("available scales are read per channel from hx711's space-separated lists")
    func availableScales() throws {
        let tree = try FakeIIOTree()
        let hx = try IIODevice("hx711", root: tree.root)
        #expect(try hx.availableScales(IIOChannel(0)) == [0.00015259, 0.00030518])
        #expect(try hx.availableScales(IIOChannel(1)) == [0.00061036])
        #expect(try IIODevice("ads1015", root: tree.root).availableScales(IIOChannel(0)) == [])
    }

    @Test("a channel the device lacks is not-found and names the channels it has")
    func missingChannel() throws {
        let tree = try FakeIIOTree()
        let hx = try IIODevice("hx711", root: tree.root)
        let error = #expect(throws: HardwareError.self) { try hx.raw(IIOChannel(3)) }
        #expect(error?.code == .notFound)
        #expect(error?.subject == hx.path + "/in_voltage3_raw")
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.hint == "iio:device1 [hx711] has channels voltage0, voltage1")
    }

    @Test("a raw attribute that cannot be read is a system-call error naming the file and errno")
    func unreadableRaw() throws {
        let tree = try FakeIIOTree()
        try tree.directory.makeDirectory("devices/iio:device0/in_voltage2_raw")
        let ads = try IIODevice("ads1015", root: tree.root)
        let error = #expect(throws: HardwareError.self) { try ads.raw(IIOChannel(2)) }
        #expect(error?.code == .systemCall)
        #expect(error?.errno == Errno(rawValue: 21))  // EISDIR: read(2) on a directory
        #expect(error?.description.hasPrefix("reading \(ads.path)/in_voltage2_raw: ") == true)
    }

    @Test("a missing scale is not-found rather than a silent 1.0")
    func missingScale() throws {
        let tree = try FakeIIOTree()
        try tree.directory.write("devices/iio:device2/name", "bare\n")
        try tree.directory.write("devices/iio:device2/in_voltage0_raw", "1\n")
        let error = #expect(throws: HardwareError.self) { try IIODevice("bare", root: tree.root).scale(IIOChannel(0)) }
        #expect(error?.code == .notFound)
    }

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        var file: String
        var text: String
        var testDescription: String { "\(file) = '\(text)'" }
    }

    static let malformedCases: [MalformedCase] = [
        MalformedCase(file: "in_voltage0_raw", text: "12.5"),
        MalformedCase(file: "in_voltage0_raw", text: "abc"),
        MalformedCase(file: "in_voltage0_raw", text: ""),
        MalformedCase(file: "in_voltage0_scale", text: "0.125 mV"),
        MalformedCase(file: "in_voltage0_scale", text: "nan"),
        MalformedCase(file: "in_voltage0_offset", text: "x"),
        MalformedCase(file: "in_voltage0_sampling_frequency", text: "fast"),
        MalformedCase(file: "in_voltage0_scale_available", text: "0.1 zero")
    ]

    @Test(
        "malformed attribute text is a .malformed error naming the file and the text found",
        arguments: malformedCases)
    func malformed(_ test: MalformedCase) throws {
        let tree = try FakeIIOTree()
        try tree.directory.write("devices/iio:device0/\(test.file)", test.text + "\n")
        let ads = try IIODevice("ads1015", root: tree.root)
        let channel = IIOChannel(0)
        let error = #expect(throws: HardwareError.self) {
            switch test.file {
            case "in_voltage0_raw": _ = try ads.raw(channel)
            case "in_voltage0_scale": _ = try ads.scale(channel)
            case "in_voltage0_offset": _ = try ads.offset(channel)
            case "in_voltage0_sampling_frequency": _ = try ads.samplingFrequency(channel)
            default: _ = try ads.availableScales(channel)
            }
        }
        #expect(error?.code == .malformed)
        #expect(error?.subject == ads.path + "/" + test.file)
        #expect(error?.detail?.contains("found '") == true)
    }

    struct ChannelCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: IIOChannel?
        var testDescription: String { "'\(text)'" }
    }

    static let channelCases: [ChannelCase] = [
        ChannelCase(text: "0", expected: IIOChannel(0)),
        ChannelCase(text: "voltage3", expected: IIOChannel(3)),
        ChannelCase(text: "0-1", expected: IIOChannel(0, minus: 1)),
        ChannelCase(text: "voltage2-voltage3", expected: IIOChannel(2, minus: 3)),
        ChannelCase(text: "", expected: nil),
        ChannelCase(text: "-1", expected: nil),
        ChannelCase(text: "voltage", expected: nil),
        ChannelCase(text: "current0", expected: nil),
        ChannelCase(text: "voltage+1", expected: nil)
    ]

    @Test("channel names parse as the kernel spells them, short forms included", arguments: channelCases)
    func parseChannel(_ test: ChannelCase) {
        if let expected = test.expected {
            #expect((try? IIOChannel(parsing: test.text)) == expected)
        } else {
            #expect(throws: HardwareError.self) { try IIOChannel(parsing: test.text) }
        }
    }
}

import PlumProbe
import PlumTestSupport
import Testing

/// The probe's sysfs and device-tree parts against fake trees in a temporary directory.
@Suite("The probe's file parsers, on fake trees")
struct ProbeTreeTests {
    @Test("the model is read up to its NUL, from procfs first")
    func modelFromProcfs() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        _ = try tree.makeDirectory("proc/device-tree")
        writeFile(tree.file("proc/device-tree/model"), "Raspberry Pi 4 Model B Rev 1.4\0")
        let board = BoardModel.read(ProbeRoots(under: tree.path))
        #expect(board.model == "Raspberry Pi 4 Model B Rev 1.4")
        #expect(board.isRaspberryPi)
        #expect(board.description == "Raspberry Pi 4 Model B Rev 1.4")
    }

    @Test("without /proc/device-tree the model comes from /sys/firmware/devicetree")
    func modelFromSysfs() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        _ = try tree.makeDirectory("sys/firmware/devicetree/base")
        writeFile(tree.file("sys/firmware/devicetree/base/model"), "Raspberry Pi 5 Model B Rev 1.0\0")
        #expect(BoardModel.read(ProbeRoots(under: tree.path)).model == "Raspberry Pi 5 Model B Rev 1.0")
    }

    @Test("a PC has no device-tree model, and the probe says so rather than guessing")
    func noModel() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        let board = BoardModel.read(ProbeRoots(under: tree.path))
        #expect(board.model == nil)
        #expect(!board.isRaspberryPi)
        #expect(board.description.contains("no device-tree model"))
        #expect(board.description.contains(tree.file("proc/device-tree/model")))
    }

    @Test("I2C buses are the i2c-N device files, in bus order, named by their adapter")
    func i2cBuses() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        _ = try tree.makeDirectory("dev")
        for name in ["i2c-20", "i2c-1", "i2c-x", "i2c-", "gpiochip0", "null"] {
            writeFile(tree.file("dev/" + name), "")
        }
        _ = try tree.makeDirectory("sys/class/i2c-dev/i2c-1")
        writeFile(tree.file("sys/class/i2c-dev/i2c-1/name"), "bcm2835 (i2c@7e804000)\n")
        let buses = I2CBusFinding.all(ProbeRoots(under: tree.path))
        #expect(buses.map(\.number) == [1, 20])
        #expect(buses.map(\.path) == [tree.file("dev/i2c-1"), tree.file("dev/i2c-20")])
        #expect(buses.map(\.adapter) == ["bcm2835 (i2c@7e804000)", nil])
        #expect(buses[0].description == tree.file("dev/i2c-1") + " (bcm2835 (i2c@7e804000))")
    }

    @Test("no /dev directory is no I2C bus, not an error")
    func noBuses() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        #expect(I2CBusFinding.all(ProbeRoots(under: tree.path)).isEmpty)
    }

    @Test("IIO devices are listed with their driver's name, and say which kind reads them")
    func iioNames() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        for (id, name) in [("iio:device1", "ads1015"), ("iio:device0", "hx711"), ("iio:device10", "bme280")] {
            _ = try tree.makeDirectory("sys/bus/iio/devices/" + id)
            writeFile(tree.file("sys/bus/iio/devices/\(id)/name"), name + "\n")
        }
        _ = try tree.makeDirectory("sys/bus/iio/devices/trigger0")
        let found = IIOFinding.all(ProbeRoots(under: tree.path))
        #expect(found.map(\.id) == ["iio:device0", "iio:device1", "iio:device10"])
        #expect(found.map(\.name) == ["hx711", "ads1015", "bme280"])
        #expect(found[0].description.contains("hx711 driver"))
        #expect(found[1].description.contains("ti-ads1015"))
        #expect(found[2].description.contains("not a sensor PlumScale knows"))
    }

    @Test("regular files named gpiochipN are not chips: only what libgpiod opens is listed")
    func fakeChipFilesAreNotChips() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        _ = try tree.makeDirectory("dev")
        writeFile(tree.file("dev/gpiochip0"), "")
        #expect(GPIOChipFinding.all(ProbeRoots(under: tree.path)).isEmpty)
    }

    struct LabelCase: Sendable, CustomTestStringConvertible {
        var label: String
        var role: GPIOChipFinding.Role
        var testDescription: String { label }
    }

    @Test(
        "chip labels say which chip carries the Pi's header",
        arguments: [
            LabelCase(label: "pinctrl-bcm2835", role: .piHeader),
            LabelCase(label: "pinctrl-bcm2711", role: .piHeader),
            LabelCase(label: "pinctrl-rp1", role: .piHeader),
            LabelCase(label: "raspberrypi-exp-gpio", role: .piOther),
            LabelCase(label: "pinctrl-bcm2712", role: .piOther),
            LabelCase(label: "pinctrl-bcm2712-aon", role: .piOther),
            LabelCase(label: "gpio-sim.0-node0", role: .simulated),
            LabelCase(label: "hx711-sim", role: .simulated),
            LabelCase(label: "INT34C5:00", role: .other)
        ])
    func labelRoles(_ example: LabelCase) {
        #expect(GPIOChipFinding.role(ofLabel: example.label) == example.role)
    }
}

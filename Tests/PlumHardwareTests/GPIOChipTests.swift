import Foundation
import PlumTestSupport
import Testing

@testable import PlumHardware

/// These open real files through the real libgpiod (1.6 or 2.x, whichever the build links), so
/// they check the shim's errno handling against the library itself.
@Suite("GPIO chips through libgpiod")
struct GPIOChipTests {
    @Test("the build reports the libgpiod API it was compiled against (PLUM_EXPECT_GPIOD_API names it)")
    func apiVersion() {
        let version = GPIOChip.libgpiodAPIVersion
        if let expected = ProcessInfo.processInfo.environment["PLUM_EXPECT_GPIOD_API"] {
            #expect(version == expected)
        } else {
            #expect(version == "1" || version == "2")
        }
    }

    @Test(
        "consumer names are cut to the kernel's 31 bytes by us, at a whole character, never inside one",
        arguments: [
            ("plumscale left PD_SCK", "plumscale left PD_SCK"),
            // 10 + 20 bytes, then "é" (2 bytes) would end at byte 32: it is left out whole.
            (
                "plumscale " + String(repeating: "x", count: 20) + "é DOUT",
                "plumscale " + String(repeating: "x", count: 20)
            ),
            // "Küche" is 6 bytes: 10 + 6 + 1 + 14 = 31 bytes exactly fit.
            (
                "plumscale Küche " + String(repeating: "y", count: 14) + " PD_SCK",
                "plumscale Küche " + String(repeating: "y", count: 14)
            ),
            // Four bytes each: the sixth would end at byte 34.
            ("plumscale 🍑🍑🍑🍑🍑🍑 DOUT", "plumscale 🍑🍑🍑🍑🍑"),
            ("plum\0scale", "plumscale")
        ])
    func consumerNames(name: String, kept: String) {
        let fitted = GPIOChip.kernelConsumer(name)
        #expect(fitted == kept, "\(name) became \(fitted)")
        #expect(fitted.utf8.count <= 31, "\(fitted.utf8.count) bytes: the kernel would cut it")
    }

    @Test("opening a missing chip is ENOENT naming the path, with a hint about the chips that exist")
    func missingChip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/gpiochip7"
        let error = #expect(throws: HardwareError.self) { try GPIOChip(path: path, deviceDirectory: directory.path) }
        #expect(error?.code == .notFound)
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.description.hasPrefix("opening \(path): No such file or directory (ENOENT); ") == true)
        #expect(error?.hint?.contains("no GPIO chips in \(directory.path)") == true)
    }

    @Test("a missing chip in /dev lists exactly the chips gpiodetect would list")
    func missingChipInDev() {
        let error = #expect(throws: HardwareError.self) { try GPIOChip(.name("gpiochip999")) }
        let chips = GPIOChip.available()
        #expect(error?.errno == .noSuchFileOrDirectory)
        if chips.isEmpty {
            #expect(error?.hint?.contains("no GPIO chips in /dev") == true)
        } else {
            #expect(error?.hint == "chips here: " + chips.map(\.description).joined(separator: ", "))
        }
    }

    @Test("a character device that is not a GPIO chip is refused with a clear error")
    func devNull() {
        let error = #expect(throws: HardwareError.self) { try GPIOChip(path: "/dev/null") }
        #expect(error?.errno == .noSuchDevice || error?.errno == .notATypewriter)
        #expect(error?.hint?.contains("/dev/null is not a GPIO character device") == true)
    }

    @Test("a regular file is refused as a GPIO chip")
    func regularFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("gpiochip0", "not a chip\n")
        let path = directory.path + "/gpiochip0"
        let error = #expect(throws: HardwareError.self) { try GPIOChip(path: path, deviceDirectory: directory.path) }
        #expect(error?.code == .systemCall)
        #expect(error?.errno == .noSuchDevice || error?.errno == .notATypewriter)
        #expect(error?.description.hasPrefix("opening \(path): ") == true)
    }

    @Test("listing chips skips entries that are not GPIO chips")
    func availableSkipsImpostors() throws {
        let directory = try TemporaryDirectory()
        try directory.write("gpiochip0", "")
        try directory.makeDirectory("gpiochip1")
        #expect(GPIOChip.available(in: directory.path).isEmpty)
        #expect(GPIOChip.available(in: directory.path + "/missing").isEmpty)
    }

    @Test("a label that no chip carries is not-found, naming the label and the chips that exist")
    func missingLabel() throws {
        let directory = try TemporaryDirectory()
        try directory.write("gpiochip0", "")
        let error = #expect(throws: HardwareError.self) {
            try GPIOChip(.label("pinctrl-rp1"), deviceDirectory: directory.path)
        }
        #expect(error?.code == .notFound)
        #expect(error?.subject == "GPIO chip labelled 'pinctrl-rp1'")
        #expect(error?.hint?.contains("no GPIO chips in \(directory.path)") == true)
    }

    @Test("the chip hints say what gpiodetect says, and EACCES names the gpio group")
    func hints() {
        let chips = [
            GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58),
            GPIOChipInfo(path: "/dev/gpiochip1", name: "gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8)
        ]
        let missing = HardwareError.gpioChipOpen(
            path: "/dev/gpiochip4", errno: .noSuchFileOrDirectory, chips: chips, directory: "/dev")
        #expect(
            missing.description == "opening /dev/gpiochip4: No such file or directory (ENOENT); chips here: "
                + "gpiochip0 [pinctrl-bcm2711] 58 lines, gpiochip1 [raspberrypi-exp-gpio] 8 lines")
        let denied = HardwareError.gpioChipOpen(
            path: "/dev/gpiochip0", errno: .permissionDenied, chips: [], directory: "/dev")
        #expect(
            denied.description.hasPrefix(
                "opening /dev/gpiochip0: Permission denied (EACCES); add the user to group 'gpio'"))
        let busy = HardwareError.gpioLineRequest(
            subject: "gpiochip0 line 5 (GPIO5)", errno: .deviceBusy, consumer: "w1-gpio", bias: .asIs)
        #expect(busy.description.contains("Device or resource busy (EBUSY)"))
        #expect(busy.hint?.contains("consumer 'w1-gpio'") == true)
        #expect(busy.hint?.contains("gpioinfo") == true)
    }
}

@Suite("Edge-wait timeouts")
struct EdgeWaitTimeoutTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var duration: Duration
        var nanoseconds: Int64
        var testDescription: String { "\(duration)" }
    }

    static let cases: [Case] = [
        Case(duration: .milliseconds(250), nanoseconds: 250_000_000),
        Case(duration: .nanoseconds(1), nanoseconds: 1),
        Case(duration: .seconds(2) + .nanoseconds(5), nanoseconds: 2_000_000_005),
        Case(duration: .zero, nanoseconds: 0),
        Case(duration: .milliseconds(-3), nanoseconds: 0),
        Case(duration: .seconds(Int64.max), nanoseconds: .max),
        Case(duration: .seconds(Int64.min), nanoseconds: 0),
        Case(duration: .seconds(9_223_372_036) + .milliseconds(999), nanoseconds: .max)
    ]

    @Test(
        "a Duration becomes the C call's nanoseconds: exact, never negative, saturating instead of trapping",
        arguments: cases)
    func conversion(_ test: Case) {
        #expect(GPIOInputRequest.nanoseconds(test.duration) == test.nanoseconds)
    }
}

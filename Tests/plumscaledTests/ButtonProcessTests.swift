import PlumTestSupport
import PlumTestThreads
import Testing

/// A `[[button]]` whose line cannot be had is a fault of that button alone.
@Suite("plumscaled with a button it cannot open", .tags(.process), .timeLimit(.minutes(5)), .ownThreads)
struct ButtonProcessTests {
    @Test("a button on a chip that is not there is logged with its file and line, and the pans still weigh")
    func missingChipIsLoggedAndTheScaleRuns() throws {
        let daemon = try DaemonFixture(
            configuration: """
                [[sensor]]
                name = "left"
                kind = "simulated-hx711"
                load_grams = 100

                [[button]]
                chip = "/dev/gpiochip-not-wired"
                line = 27
                """)
        try daemon.waitForReadings()
        let log = daemon.log
        #expect(
            log.contains("button (") && log.contains("plumscale.toml:6") && log.contains("/dev/gpiochip-not-wired")
                && log.contains("the scale runs without it"),
            "the log names the button's line in the file, the chip and what happens: \(log)")
        let reading = try daemon.client().poll()
        #expect(reading.weights.count == 1, "the pan still weighs: \(reading)")
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }
}

import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumSensors
import PlumSimulation
import PlumStore
import PlumSystem
import PlumTestSupport
import PlumTransport
import Testing

@testable import PlumScaleDaemon
@testable import PlumStation

#if canImport(Glibc)
    import Glibc
#endif

@Suite("systemd hears how the sensors are")
struct SensorStatusTests {
    @Test("STATUS= names the sensors that are not ok, with the reason, when a state changes")
    func statusOnStateChange() async throws {
        let directory = try TemporaryDirectory()
        let systemd = DatagramReceiver(path: directory.path + "/notify")
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.path + "/notify"])
        let configuration = try PlumConfiguration.parse(
            "[[sensor]]\nname = \"good\"\nkind = \"simulated-hx711\"\nload_grams = 50\n[[sensor]]\nname = "
                + "\"broken\"\nkind = \"simulated-hx711\"\n",
            file: "status.toml")
        let sensor = configuration.sensors[0]
        // A simulated chip in real time: it stays ok for as long as the test runs.
        let good = Sampler(name: "good") { () throws(SensorError) -> any SampleSource in try SensorFactory.open(sensor)
        }
        let broken = Sampler(name: "broken", backoff: BackOff(first: .seconds(5), limit: .seconds(5), jitter: 0)) {
            () throws(SensorError) -> any SampleSource in
            throw .hardware(sensor: "broken", HardwareError(.notFound, operation: "opening", subject: "/dev/gpiochip9"))
        }
        let station = try Station(
            configuration: configuration, store: CalibrationStore(directory: directory.path),
            publisher: DiscardingPublisher())
        let service = SamplerService(
            samplers: [good, broken], station: station, notifier: notifier)
        let running = Task { try await service.run() }
        defer { running.cancel() }

        let statuses = try await systemd.next("STATUS= naming the broken sensor") {
            $0.contains("1 of 2 sensors ok") && $0.contains("broken: fault: ")
        }
        let last = try #require(statuses.last, "systemd heard nothing")
        #expect(last.hasPrefix("STATUS=1 of 2 sensors ok; broken: fault: "), "systemd got \(statuses)")
        #expect(last.contains("/dev/gpiochip9"), "the reason is not in the status: \(last)")
    }
}

import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

@Suite("The blocking client against a real plumscaled", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct DaemonClientTests {
    @Test("connects, reads the greeting, lists the sensors and streams their weights")
    func watchesWeights() async throws {
        let daemon = try await offPool { try DaemonFixture() }
        try await offPool {
            let client = try daemon.client()
            #expect(client.version.protoMajor == 1, "greeting was \(client.version)")
            #expect(client.socketPath == daemon.socketPath, "connected to \(client.socketPath)")
            let devices = try client.devices()
            #expect(devices.map(\.sensor) == ["left", "right"], "the simulated pans are left and right: \(devices)")
            let answer = try client.watch(WatchOptions(sensors: ["right"]))
            #expect(answer.enable && answer.sensors == ["right"], "WATCH answered \(answer)")
            let weight = try client.nextWeight(within: .seconds(10))
            #expect(weight.sensor == "right", "watching right only, a report came from \(weight.sensor)")
        }
    }

    @Test("an unknown sensor is refused with the sensors there are")
    func unknownSensor() async throws {
        let daemon = try await offPool { try DaemonFixture() }
        let error = try await offPool { () -> ClientError? in
            do {
                _ = try daemon.client().sensors(["middle"])
                return nil
            } catch let error as ClientError {
                return error
            }
        }
        #expect(error?.code == .unknownSensor, "code was \(String(describing: error?.code))")
        #expect(error?.message.contains("this daemon has: left, right") == true, "\(error?.message ?? "no error")")
    }

    @Test("tare and zero come back as typed replies for the sensor asked; POLL has every sensor")
    func commands() async throws {
        let daemon = try await offPool { try DaemonFixture(configuration: Self.steadyPan) }
        try await offPool {
            try daemon.waitForReadings()
            let client = try daemon.client()
            let poll = try client.poll()
            #expect(poll.weights.map(\.sensor) == ["pan"], "POLL weights: \(poll.weights)")
            let tare = try client.tare(sensor: "pan")
            #expect(tare.command == "TARE" && tare.sensor == "pan", "tare reply: \(tare)")
            #expect(tare.ok || tare.reason != nil, "a refused tare says why: \(tare)")
            let zero = try client.zero(sensor: "pan")
            #expect(zero.command == "ZERO" && zero.sensor == "pan", "zero reply: \(zero)")
            let begin = try client.calibrate(CalibrationRequest(sensor: "pan", step: .begin))
            #expect(begin.step == "begin" && begin.ok, "calibration begin: \(begin)")
            let cancel = try client.calibrate(CalibrationRequest(sensor: "pan", step: .cancel))
            #expect(cancel.step == "cancel" && cancel.ok, "calibration cancel: \(cancel)")
        }
    }

    @Test("a request the daemon refuses throws its ERROR message")
    func daemonError() async throws {
        let daemon = try await offPool { try DaemonFixture(configuration: Self.steadyPan) }
        let error = try await offPool { () -> ClientError? in
            do {
                _ = try daemon.client().tare(sensor: "nowhere")
                return nil
            } catch let error as ClientError {
                return error
            }
        }
        #expect(error?.code == .unknownSensor, "code was \(String(describing: error?.code)): \(error?.message ?? "")")
    }

    @Test("the daemon going away is a lost connection, not a hang")
    func daemonGone() async throws {
        let daemon = try await offPool { try DaemonFixture(configuration: Self.steadyPan) }
        let error = try await offPool { () -> ClientError? in
            let client = try daemon.client()
            try client.watch()
            _ = daemon.terminate()
            do {
                while try client.nextReport(timeout: .seconds(30)) != nil {}
                return nil
            } catch let error as ClientError {
                return error
            }
        }
        #expect(error?.code == .connectionLost, "code was \(String(describing: error?.code))")
        #expect(
            error?.message.contains("lost the connection to plumscaled at \(daemon.socketPath)") == true,
            "\(error?.message ?? "no error")")
    }

    /// One simulated HX711 with a constant load: stable, so tare and zero can succeed.
    static let steadyPan = """
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        seed = 3
        load_grams = 0
        """
}

import Foundation

extension ChildProcess {
    /// Runs the built `plumscale` with `arguments`, off the concurrency pool.
    package static func plumscale(
        _ arguments: [String], environment: [String: String] = [:], input: String = ""
    ) async -> ChildProcess {
        do {
            return try await run(BuiltProducts.plumscale, arguments, environment: environment, input: input)
        } catch {
            return ChildProcess(status: -1, stdout: "", stderr: "could not run plumscale: \(error)")
        }
    }
}

/// A real `plumscaled` with simulated pans described in TOML, for running `plumscale` commands
/// against; a pan with no fixed load reads its grams from a file the test writes.
package final class ScaleFixture: Sendable {
    package let daemon: DaemonFixture
    package var directory: String { daemon.directory.path }
    package var socket: String { daemon.socketPath }

    package struct SensorLoad: Sendable {
        package var name: String
        /// Constant grams, or nil for a load file `<directory>/<name>.grams` the test writes.
        package var grams: Double?
    }

    private init(_ sensors: [SensorLoad], daemonSettings: String, scaleSettings: String) throws {
        let directory = try TemporaryDirectory(prefix: "plumcli")
        var toml = scaleSettings.isEmpty ? "" : "[scale]\n\(scaleSettings)\n\n"
        toml += daemonSettings.isEmpty ? "" : "[daemon]\n\(daemonSettings)\n\n"
        for (index, sensor) in sensors.enumerated() {
            toml += "[[sensor]]\nname = \"\(sensor.name)\"\nkind = \"simulated-hx711\"\nseed = \(index + 3)\n"
            if let grams = sensor.grams {
                toml += "load_grams = \(grams)\n\n"
            } else {
                toml += "load_file = \"\(try directory.write("\(sensor.name).grams", "0\n"))\"\n\n"
            }
        }
        daemon = try DaemonFixture(configuration: toml, directory: directory)
        try daemon.waitForReadings()
    }

    /// Starts the daemon off the concurrency pool and waits for every pan's first reading.
    package static func start(
        _ sensors: [(String, Double?)], daemonSettings: String = "", scaleSettings: String = ""
    ) async throws -> ScaleFixture {
        let list = sensors.map { SensorLoad(name: $0.0, grams: $0.1) }
        return try await offPool {
            try ScaleFixture(list, daemonSettings: daemonSettings, scaleSettings: scaleSettings)
        }
    }

    /// Runs `plumscale` against this daemon, to the end.
    package func plumscale(_ arguments: [String], input: String = "") async -> ChildProcess {
        await ChildProcess.plumscale(arguments, environment: ["PLUMSCALE_SOCKET": socket], input: input)
    }

    /// Starts `plumscale` against this daemon, for a test that acts on what it prints;
    /// `environment` adds to (or overrides) the socket's variable.
    package func start(
        _ arguments: [String], input: String = "", environment: [String: String] = [:]
    ) throws -> BackgroundProcess {
        try BackgroundProcess(
            BuiltProducts.plumscale, arguments,
            environment: ["PLUMSCALE_SOCKET": socket].merging(environment) { $1 }, input: input)
    }

    /// Sends SIGHUP and waits until the daemon logs that it reloaded.
    package func reload() async throws {
        let daemon = self.daemon
        try await offPool {
            let before = daemon.log.components(separatedBy: "reloaded:").count
            daemon.send(SIGHUP)
            try waitUntil("plumscaled to log that it reloaded", describe: { daemon.log }) {
                daemon.log.components(separatedBy: "reloaded:").count > before
            }
        }
    }

    /// Puts `grams` on the pan `sensor` (one started with no fixed load).
    package func place(_ grams: Double, on sensor: String) {
        writeFile("\(directory)/\(sensor).grams", "\(grams)\n")
    }

    /// Runs `plumscale arguments` and, each time it prints `cue` on standard error, places the next
    /// of `loads` on `sensor`: the weights go on when the command says it waits for them.
    package func run(
        _ arguments: [String], input: String = "", placing loads: [(cue: String, grams: Double)], on sensor: String,
        environment: [String: String] = [:]
    ) async throws -> ChildProcess {
        let command = try start(arguments, input: input, environment: environment)
        let steps = loads.map { PlacedLoad(cue: $0.cue, grams: $0.grams) }
        return try await offPool {
            for step in steps {
                try command.waitForOutput(step.cue)
                self.place(step.grams, on: sensor)
            }
            return command.finish()
        }
    }

    private struct PlacedLoad: Sendable {
        var cue: String
        var grams: Double
    }
}

/// The number before " g" (or another unit) in a line of `plumscale read`.
package func grams(in line: String, unit: String = "g") -> Double {
    guard let end = line.firstRange(of: " \(unit) ")?.lowerBound ?? line.firstRange(of: " \(unit)\n")?.lowerBound else {
        return .nan
    }
    let number = line[..<end].reversed().prefix { "-.0123456789".contains($0) }
    return Double(String(number.reversed())) ?? .nan
}

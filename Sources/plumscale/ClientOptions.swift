import ArgumentParser
import PlumProtocol

/// The options every command that talks to the daemon shares.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The daemon's socket (default: $PLUMSCALE_SOCKET, then /run/plumscale/plumscale.sock, then the per-user path).",
        valueName: "path"))
    var socket: String?

    /// Connects, or prints why not and exits with the documented code.
    func connect() throws -> DaemonConnection {
        try ClientError.exitOnFailure { () throws(ClientError) in try DaemonConnection(path: SocketLocator.resolve(socket)) }
    }
}

extension ClientError {
    /// Runs `body`; a ``ClientError`` is printed to standard error and becomes its exit code.
    static func exitOnFailure<T>(_ body: () throws(ClientError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            printError(error.message)
            throw error.exitCode
        }
    }
}

extension DaemonConnection {
    /// The configured sensors and their states, from `?DEVICES`.
    func devices() throws(ClientError) -> [DevicesReport.Device] {
        try ask("?DEVICES;", timeout: 5) { report in
            if case .devices(let devices) = report { devices.devices } else { nil }
        }
    }

    /// `names`, checked against the daemon's sensors; all sensors when `names` is empty.
    /// - Throws: ``ClientError`` `.unknownSensor` listing the sensors there are.
    func sensors(_ names: [String]) throws(ClientError) -> [DevicesReport.Device] {
        let all = try devices()
        guard !names.isEmpty else { return all }
        return try names.map { name throws(ClientError) in
            guard let device = all.first(where: { $0.sensor == name }) else {
                throw ClientError(.unknownSensor, "no sensor named \"\(name)\"; this daemon has: \(all.map(\.sensor).joined(separator: ", "))")
            }
            return device
        }
    }

    /// Subscribes to WEIGHT reports of `sensors` (all when empty).
    func watch(_ sensors: [String]) throws(ClientError) {
        var request = JSONWriter()
        request.add("enable", true)
        request.add("sensors", strings: sensors)
        _ = try ask("?WATCH=\(request.finished);", timeout: 5) { report in
            if case .watch = report { true } else { nil }
        }
    }
}

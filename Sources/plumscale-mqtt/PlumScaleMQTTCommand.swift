import ArgumentParser
import Dispatch
import Logging
import PlumHomeAssistant
import PlumMQTT
import PlumMQTTService
import PlumSettings

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale-mqtt`: the bridge from plumscaled to an MQTT broker and Home Assistant. Argument
/// parsing and wiring only; the work is in PlumHomeAssistant and PlumMQTT.
@main
struct PlumScaleMQTTCommand: AsyncParsableCommand {
    static let version = "0.1.0"
    static let configuration = CommandConfiguration(
        commandName: "plumscale-mqtt",
        abstract: "Publishes plumscaled's readings to an MQTT broker, with Home Assistant discovery.",
        discussion: """
            Reads [mqtt] (and the division from [scale]) of the configuration file; the options \
            override it. It watches plumscaled through its socket and reconnects when the daemon \
            or the broker restarts. SIGTERM publishes offline and stops. \
            Exit codes: 0 stopped on request; 1 configuration error; 2 could not start.
            """,
        version: version)

    @Option(help: ArgumentHelp("The configuration file ([mqtt] and [scale]).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("plumscaled's socket; default: the one plumscale finds.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("The broker, overriding [mqtt] host and port.", valueName: "host:port"))
    var broker: String?

    @Option(
        name: .customLong("scale-id"), help: ArgumentHelp("This scale's id in topics and unique ids.", valueName: "id"))
    var scaleID: String?

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "plumscale-mqtt")
        let setup: BridgeSetup
        do {
            setup = try BridgeSetup.make(
                try loadConfiguration(), overrides: .init(broker: broker, scaleID: scaleID), version: Self.version,
                credential: ServiceCredential.path(ServiceCredential.mqttPassword),
                readFile: { path in try TextFile.read(path) })
        } catch {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
        for warning in setup.warnings { logger.warning("\(warning)") }
        let topics = setup.bridge.topics
        logger.info("scale \(topics.identity.scaleID) on \(setup.mqtt.endpoint), topics under \(topics.base)/")
        let bridge: Bridge<PlumClientLink>
        do {
            let client = try MQTTClient(setup.mqtt)
            let link = PlumClientLink(socketPath: socket, logger: logger, version: Self.version)
            bridge = Bridge(mqtt: client, link: link, settings: setup.bridge, logger: logger)
        } catch {
            logger.critical("\(error)")
            throw ExitCode(2)
        }
        let task = Task { try await bridge.run() }
        let signals = Self.onTermination { task.cancel() }
        defer { signals.forEach { $0.cancel() } }
        do {
            try await task.value
        } catch {
            logger.critical("\(error)")
            throw ExitCode(2)
        }
    }

    /// `--config`, else the default file; with no file at the default place, the defaults
    /// and the flags.
    private func loadConfiguration() throws(ConfigurationError) -> MQTTBridgeConfiguration {
        guard let config else {
            let path = ConfigurationFile.defaultPath
            guard let text = try ConfigurationFile.textIfPresent(at: path) else { return MQTTBridgeConfiguration() }
            return try MQTTBridgeConfiguration.parse(text, file: path)
        }
        return try MQTTBridgeConfiguration.parse(ConfigurationFile.text(at: config), file: config)
    }

    /// SIGTERM and SIGINT run `action` once on a Dispatch queue instead of killing the process.
    private static func onTermination(_ action: @escaping @Sendable () -> Void) -> [DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }
}

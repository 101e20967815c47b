public import Logging
public import PlumConfig
import PlumCore
import PlumDrivers
import PlumHardware
import PlumSensors
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// `plumscaled` composed: samplers feed the station, the station publishes to the hub, the
/// socket server serves clients, and systemd hears READY, STATUS and the watchdog.
public enum Daemon {
    public struct Options: Sendable {
        public var configuration: PlumConfiguration
        /// Overrides the configured or default socket path.
        public var socketPath: String?
        /// Where calibrations are kept.
        public var stateDirectory: String
        /// How long a sampler may stay inside a driver call before the watchdog is starved.
        public var stallLimit: Duration
        /// The file the configuration came from, re-read on SIGHUP; nil for a built-in one.
        public var configurationPath: String?
        /// SIGTERM/SIGINT stop it and SIGHUP reloads; false for a daemon inside another program
        /// (`plumscale demo`), which stops it by cancelling the task that runs it.
        public var handlesSignals: Bool

        public init(
            configuration: PlumConfiguration, socketPath: String? = nil, stateDirectory: String,
            stallLimit: Duration = .seconds(10), handlesSignals: Bool = true, configurationPath: String? = nil
        ) {
            self.configuration = configuration
            self.configurationPath = configurationPath
            self.socketPath = socketPath
            self.stateDirectory = stateDirectory
            self.stallLimit = stallLimit
            self.handlesSignals = handlesSignals
        }
    }

    /// Runs until SIGTERM or SIGINT, then stops samplers, closes clients and listeners.
    public static func run(_ options: Options, logger: Logger) async throws {
        let environment = ProcessEnvironment.current
        let configuration = options.configuration
        let notifier = SystemdNotifier(environment: environment)
        let activation = try SocketActivation.fromProcessEnvironment()

        let hub = ClientHub(configuration: .init(
            maximumClients: configuration.daemon.maxClients, queueCapacity: configuration.daemon.clientQueue))
        let store = CalibrationStore(directory: options.stateDirectory)
        let station = try Station(configuration: configuration, store: store, publisher: hub)
        await installSimulatedCalibrations(configuration, station: station, logger: logger)

        var endpoints: [ListenerEndpoint] = []
        if let passed = activation.endpoint(named: "json") ?? activation.sockets.first.map({ .passedDescriptor($0.descriptor, name: $0.name) }) {
            endpoints.append(passed)
        } else {
            let path = options.socketPath ?? configuration.daemon.socket ?? UnixSocketPath.defaultPath(environment: environment)
            endpoints.append(.unixSocket(path: path, group: configuration.daemon.socketGroup))
        }
        if let tcp = configuration.daemon.tcp { endpoints.append(listenerEndpoint(tcp, group: configuration.daemon.socketGroup)) }
        let unixSocket: String? = if case .unixSocket(let path, _) = endpoints[0] { path } else { nil }
        let authorization = try commandAuthorization(adminGroup: configuration.daemon.adminGroup, unixSocket: unixSocket)

        let mtsics = try mtsicsListener(configuration, activation: activation, station: station)
        switch DescriptorLimit.fit(DescriptorLimit.needed(clients: configuration.daemon.maxClients, mtsics: mtsics != nil)) {
        case .enough:
            break
        case .raised(let from, let to):
            logger.info("open-file limit raised from \(from) to \(to) for max_clients \(configuration.daemon.maxClients)")
        case .short(let limit, let needed):
            logger.warning(
                "max_clients \(configuration.daemon.maxClients) needs about \(needed) open files but the limit is \(limit): clients past it will be refused; raise LimitNOFILE= for plumscaled.service (or ulimit -n), or lower max_clients")
        }

        let server = SocketServer(
            hub: hub, requestHandler: StationRequestHandler(station: station), endpoints: endpoints,
            mtsics: mtsics, authorization: authorization, notifier: notifier, logger: logger)

        let samplers = configuration.sensors.map { sensor in
            Sampler(name: sensor.name, setup: { sensor.wiring.sampler.apply() }) { () throws(SensorError) -> any SampleSource in
                try SensorFactory.open(sensor)
            }
        }
        for sampler in samplers { await station.attach(sampler) }

        try await server.start()
        let feeding = SamplerService(samplers: samplers, station: station, logger: logger, notifier: notifier)
        let names = configuration.sensors.map(\.name).joined(separator: ", ")
        var listening = endpoints.map(\.description).joined(separator: ", ")
        if let mtsics, let balance = mtsics.handler as? StationBalance {
            listening += "; MT-SICS on " + mtsics.endpoints.map(\.description).joined(separator: ", ") + " weighing with \(balance.sensor)"
        }
        logger.info("plumscaled \(DaemonVersion.release) serving \(listening) for \(names)")
        try notifier.ready(status: "\(samplers.count) sensors (\(names)); listening on \(listening)")

        let stallLimit = options.stallLimit
        let watchdog = try WatchdogPinger(environment: environment, notifier: notifier, logger: logger) {
            samplers.allSatisfy { $0.isHealthy(stallLimit: stallLimit) }
        }
        let inUse = ConfigurationInUse(configuration)
        let path = options.configurationPath
        let reload = ReloadService(notifier: notifier, logger: logger) {
            var notes: [String] = []
            if let path {
                notes += await reloadConfiguration(path, inUse: inUse, station: station)
            }
            notes.append(await station.reloadCalibrations())
            let status = notes.joined(separator: "; ")
            logger.notice("reloaded: \(status)")
            return status
        }
        var services: [any Service] = options.handlesSignals ? [server, feeding, watchdog, reload] : [server, feeding, watchdog]
        if let cue = configuration.cue {
            do {
                let pulser = try CuePulser(
                    chip: cue.chip, line: cue.line, activeLow: cue.activeLow, pulse: .milliseconds(cue.pulseMilliseconds), logger: logger)
                await station.attachCueOutput(pulser)
                services.append(CueService(pulser: pulser))
                logger.info("cue output on \(cue.chip) line \(cue.line), \(cue.pulseMilliseconds) ms pulses")
            } catch {
                // The scale still weighs; clients still get CUE reports.
                logger.error("cue output: \(error); cues go to clients only")
            }
        }
        let group = ServiceGroup(
            services: services,
            gracefulShutdownSignals: options.handlesSignals ? [.sigterm, .sigint] : [], cancellationSignals: [], logger: logger)
        try await group.run()
    }

    /// A simulated HX711's transfer function is known exactly, so until a calibration is
    /// stored it is weighed with that one: `plumscaled --simulate` shows grams at once.
    static func installSimulatedCalibrations(_ configuration: PlumConfiguration, station: Station, logger: Logger) async {
        for sensor in configuration.sensors where await !station.isCalibrated(sensor.name) {
            do {
                let scale = try scaleConfiguration(of: configuration)
                guard let calibration = try SimulatedCalibration.exact(for: sensor, scale: scale) else { continue }
                _ = await station.install(calibration, on: sensor.name)
            } catch {
                logger.warning("\(sensor.name): no simulated calibration: \(error)")
            }
        }
    }

    /// The engines' settings from `[scale]`, which the simulated calibrations are fitted with:
    /// the station's one conversion, so no setting is lost on the way (zero tracking and
    /// initial zero once were).
    static func scaleConfiguration(of configuration: PlumConfiguration) throws -> ScaleConfiguration {
        try Station.scaleConfiguration(of: configuration)
    }

    /// Root, this process's user and, when configured, the admin group's members may change
    /// state.
    /// - Throws: ``DaemonError`` when `adminGroup` names no group on this system.
    static func commandAuthorization(adminGroup: String?, unixSocket: String?) throws(DaemonError) -> CommandAuthorization {
        let uid = geteuid()
        let userName = getpwuid(uid).flatMap { $0.pointee.pw_name }.map { String(cString: $0) }
        var group: CommandAuthorization.AdminGroup?
        if let adminGroup {
            guard let entry = getgrnam(adminGroup) else {
                throw DaemonError(
                    .invalidConfiguration, operation: "looking up [daemon] admin_group", subject: "'\(adminGroup)'",
                    detail: "no such group",
                    hint: "create it (sudo groupadd \(adminGroup)) and add the users who may zero, tare and calibrate, or remove admin_group")
            }
            group = .init(name: adminGroup, gid: entry.pointee.gr_gid)
        }
        return CommandAuthorization(daemonUID: uid, daemonUserName: userName, adminGroup: group, unixSocket: unixSocket)
    }

    /// The MT-SICS listener, when systemd passes a socket named "mtsics" or `[daemon] mtsics`
    /// is set: the configured sensor (`mtsics_sensor`, else the first) as a balance.
    static func mtsicsListener(
        _ configuration: PlumConfiguration, activation: SocketActivation, station: Station
    ) throws -> SocketServer.MTSICS? {
        let endpoint: ListenerEndpoint
        if let passed = activation.endpoint(named: "mtsics") {
            endpoint = passed
        } else if let address = configuration.daemon.mtsics {
            endpoint = listenerEndpoint(address, group: configuration.daemon.socketGroup)
        } else {
            return nil
        }
        guard let sensor = configuration.daemon.mtsicsSensor ?? configuration.sensors.first?.name else { return nil }
        let balance = StationBalance(
            station: station, sensor: sensor, division: try Division(grams: configuration.scale.divisionGrams),
            capacityGrams: configuration.scale.capacityGrams)
        return SocketServer.MTSICS(endpoints: [endpoint], handler: balance)
    }

    /// The transport's endpoint for a listener address from `[daemon]`.
    static func listenerEndpoint(_ address: ListenerAddress, group: String?) -> ListenerEndpoint {
        switch address.endpoint {
        case .unixSocket(let path): .unixSocket(path: path, group: group)
        case .loopback(let host, let port): .loopbackTCP(host: host, port: port)
        }
    }
}

/// Runs the samplers for the life of the service group: starts them, hands every event to the
/// station, and on graceful shutdown stops them and waits until each has finished.
struct SamplerService: Service {
    let samplers: [Sampler]
    let station: Station
    let logger: Logger
    /// Hears a new STATUS= line whenever a sensor's state changes (`systemctl status` shows it).
    var notifier: SystemdNotifier?

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            for sampler in samplers {
                sampler.start()
                group.addTask {
                    for await event in sampler.events {
                        if case .state(let state) = event {
                            logger.notice("\(sampler.name): \(state)")
                            try? notifier?.status(Self.summary(samplers))
                        }
                        await station.handle(event, from: sampler.name)
                    }
                }
            }
            await gracefulShutdown()
            for sampler in samplers { sampler.stop() }
            await group.waitForAll()
        }
    }

    /// One line for systemd's STATUS=: how many sensors are fine, and each that is not, with why.
    static func summary(_ samplers: [Sampler]) -> String {
        let states = samplers.map { ($0.name, $0.status.state) }
        let troubled = states.filter { $0.1.name != "ok" }
        var line = "\(states.count - troubled.count) of \(states.count) sensors ok"
        if !troubled.isEmpty {
            line += "; " + troubled.map { "\($0.0): \($0.1)" }.joined(separator: "; ")
        }
        // systemd shows one line; a long driver message would be cut anyway.
        return line.count > 300 ? String(line.prefix(299)) + "…" : line
    }

    private func gracefulShutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Task {
                try? await ServiceLifecycle.gracefulShutdown()
                continuation.resume()
            }
        }
    }
}

/// Re-reads the configuration on SIGHUP and puts into use what can change while running:
/// `[scale]`. Sensors, listeners and the cue line are opened at start, so a change to them is
/// reported as needing a restart rather than half applied; a file that no longer parses leaves
/// everything as it was.
func reloadConfiguration(_ path: String, inUse: ConfigurationInUse, station: Station) async -> [String] {
    let fresh: PlumConfiguration
    do {
        fresh = try PlumConfiguration.load(path: path)
    } catch {
        return ["\(path) not reloaded: \(error); the configuration in use stays"]
    }
    let old = inUse.current.withLock { $0 }
    var notes: [String] = []
    if fresh.sensors != old.sensors {
        notes.append("[[sensor]] changes in \(path) need a restart (systemctl restart plumscaled)")
    }
    if fresh.daemon != old.daemon { notes.append("[daemon] changes need a restart") }
    if fresh.cue?.chip != old.cue?.chip || fresh.cue?.line != old.cue?.line || fresh.cue?.activeLow != old.cue?.activeLow
        || fresh.cue?.pulseMilliseconds != old.cue?.pulseMilliseconds {
        notes.append("[cue] line changes need a restart")
    }
    if fresh.scale != old.scale || fresh.cue?.onStable != old.cue?.onStable {
        var applied = old
        applied.scale = fresh.scale
        applied.cue?.onStable = fresh.cue?.onStable ?? false
        notes.append(await station.applyScaleSettings(of: applied))
        inUse.current.withLock { $0 = applied }
    }
    if notes.isEmpty { notes.append("\(path) unchanged") }
    return notes
}

/// The configuration the running daemon follows, changed by reloads.
final class ConfigurationInUse: Sendable {
    let current: Mutex<PlumConfiguration>
    init(_ configuration: PlumConfiguration) { current = Mutex(configuration) }
}

/// Drives the cue line for the life of the service group.
struct CueService: Service {
    let pulser: CuePulser<GPIOOutputRequest>

    func run() async throws {
        await withGracefulShutdownHandler {
            await pulser.run()
        } onGracefulShutdown: {
            pulser.finish()
        }
    }
}

/// The process's environment as a dictionary.
enum ProcessEnvironment {
    static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer = pointer.advanced(by: 1)
        }
        return result
    }
}

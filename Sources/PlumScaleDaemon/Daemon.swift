package import Logging
internal import PlumCore
package import PlumDaemonConfig
internal import PlumDrivers
internal import PlumHardware
internal import PlumProtocol
internal import PlumSensors
internal import PlumStation
internal import PlumStore
internal import PlumSystem
internal import PlumTransport
internal import ServiceLifecycle
internal import Synchronization
internal import UnixSignals

#if canImport(Glibc)
    internal import Glibc
#endif

/// `plumscaled` composed: samplers feed the station, the station publishes to the hub, the
/// socket server serves clients, and systemd hears READY, STATUS and the watchdog.
package enum Daemon {
    package struct Options: Sendable {
        package var configuration: PlumConfiguration
        /// Overrides the configured or default socket path.
        package var socketPath: String?
        /// Where calibrations are kept.
        package var stateDirectory: String
        /// How long a sampler may stay inside a driver call before the watchdog is starved.
        package var stallLimit: Duration
        /// The file the configuration came from, re-read on SIGHUP; nil for a built-in one.
        package var configurationPath: String?
        /// SIGTERM/SIGINT stop it and SIGHUP reloads; false for a daemon inside another program
        /// (`plumscale demo`), which stops it by cancelling the task that runs it.
        package var handlesSignals: Bool

        package init(
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
    package static func run(_ options: Options, logger: Logger) async throws {
        let environment = ProcessEnvironment.current
        let configuration = options.configuration
        let notifier = SystemdNotifier(environment: environment)
        let activation = try SocketActivation.fromProcessEnvironment()
        for warning in activation.exposureWarnings() { logger.warning("\(warning)") }

        let hub = ClientHub(
            configuration: .init(
                maximumClients: configuration.daemon.maxClients, reservedClients: configuration.daemon.reservedClients,
                idleTimeout: .seconds(configuration.daemon.idleTimeoutSeconds),
                queueCapacity: configuration.daemon.clientQueue))
        let store = CalibrationStore(directory: options.stateDirectory)
        removeStaleTemporaryFiles(store, logger: logger)
        let station = try Station(configuration: configuration, store: store, publisher: hub, logger: logger)
        let runs = beginRun(options.stateDirectory, logger: logger)
        if let runs { await station.record(runs) }
        await installSimulatedCalibrations(configuration, station: station, logger: logger)

        var endpoints: [ListenerEndpoint] = []
        if let passed = activation.endpoint(named: "json")
            ?? activation.sockets.first.map({ .passedDescriptor($0.descriptor, name: $0.name) })
        {
            endpoints.append(passed)
        } else {
            let path =
                options.socketPath ?? configuration.daemon.socket
                ?? DaemonSocketPath.binding(environment: environment, userID: getuid())
            endpoints.append(.unixSocket(path: path, group: configuration.daemon.socketGroup))
        }
        if let tcp = configuration.daemon.tcp {
            endpoints.append(listenerEndpoint(tcp, group: configuration.daemon.socketGroup))
        }
        let unixSocket: String? = if case .unixSocket(let path, _) = endpoints[0] { path } else { nil }
        let authorization = try commandAuthorization(
            adminGroup: configuration.daemon.adminGroup, unixSocket: unixSocket)

        let mtsics = try mtsicsListener(configuration, activation: activation, station: station)
        switch DescriptorLimit.fit(
            DescriptorLimit.needed(clients: configuration.daemon.maxClients, mtsics: mtsics != nil))
        {
        case .enough:
            break
        case .raised(let from, let to):
            logger.info(
                "open-file limit raised from \(from) to \(to) for max_clients \(configuration.daemon.maxClients)")
        case .short(let limit, let needed):
            let problem =
                "max_clients \(configuration.daemon.maxClients) needs about \(needed) open files "
                + "but the limit is \(limit): clients past it will be refused"
            let advice = "raise LimitNOFILE= for plumscaled.service (or ulimit -n), or lower max_clients"
            logger.warning("\(problem); \(advice)")
        }

        let server = SocketServer(
            hub: hub, requestHandler: StationRequestHandler(station: station), endpoints: endpoints,
            mtsics: mtsics, authorization: authorization, notifier: notifier, logger: logger)

        let samplers = configuration.sensors.map { sensor in
            Sampler(name: sensor.name, setup: { sensor.wiring.sampler.apply() }) {
                () throws(SensorError) -> any SampleSource in
                try SensorFactory.open(sensor)
            }
        }
        for sampler in samplers { await station.attach(sampler) }

        try await server.start()
        let feeding = SamplerService(
            samplers: samplers, station: station, notifier: notifier,
            executor: server.publishingExecutor)
        let names = configuration.sensors.map(\.name).joined(separator: ", ")
        var listening = endpoints.map(\.description).joined(separator: ", ")
        if let mtsics, let balance = mtsics.handler as? StationBalance {
            listening +=
                "; MT-SICS on " + mtsics.endpoints.map(\.description).joined(separator: ", ")
                + " weighing with \(balance.sensor)"
        }
        let status = "\(samplers.count) sensors (\(names)); listening on \(listening)"
        let ready = ReadyService { [logger, listening] in
            logger.info("plumscaled \(DaemonVersion.release) serving \(listening) for \(names)")
            try notifier.ready(status: status)
        }

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
        var services: [any Service] =
            options.handlesSignals ? [server, feeding, watchdog, reload, ready] : [server, feeding, watchdog, ready]
        if let cue = configuration.cue {
            do {
                let pulser = try CuePulser(
                    chip: cue.chip, line: cue.line, activeLow: cue.activeLow,
                    pulse: .milliseconds(cue.pulseMilliseconds), logger: logger)
                await station.attachCueOutput(pulser)
                services.append(CueService(pulser: pulser))
                logger.info("cue output on \(cue.chip) line \(cue.line), \(cue.pulseMilliseconds) ms pulses")
            } catch {
                // The scale still weighs; clients still get CUE reports.
                logger.error("cue output: \(error); cues go to clients only")
            }
        }
        for button in configuration.buttons {
            do {
                let service = try ButtonService<GPIOInputRequest>(button, station: station, logger: logger)
                services.append(service)
                let what = "short press tares, held \(button.longPressMilliseconds) ms zeroes"
                logger.info(
                    "\(service.watcher.name) (\(button.position)): \(what) \(button.sensors.joined(separator: ", "))")
            } catch {
                // The scale still weighs; clients can still tare.
                logger.error("button (\(button.position)): \(error); the scale runs without it")
            }
        }
        let group = ServiceGroup(
            services: services,
            gracefulShutdownSignals: options.handlesSignals ? [.sigterm, .sigint] : [], cancellationSignals: [],
            logger: logger)
        try await group.run()
        // Only a graceful stop gets here: SIGKILL, a crash or a power cut leave the run marked
        // as running, and the next start counts it as unclean.
        if let runs {
            do throws(CalibrationStoreError) {
                try DaemonRuns.end(runs, directory: options.stateDirectory)
            } catch {
                logger.error("this stop will be counted as unclean: \(error)")
            }
        }
    }

    /// Counts this start in the state directory (``DaemonRuns``) and logs an unclean last stop.
    static func beginRun(_ directory: String, logger: Logger) -> DaemonRuns.Record? {
        do throws(CalibrationStoreError) {
            let (record, note) = try DaemonRuns.begin(directory: directory)
            if let note { logger.warning("\(note)") }
            if record.lastStop == "unclean" {
                logger.notice(
                    "the last run did not stop cleanly (killed, crashed or a power cut); start \(record.starts)")
            }
            return record
        } catch {
            logger.error("restarts not counted: \(error)")
            return nil
        }
    }

    /// Removes the half-written `*.json.tmp` files a crash or power cut left in the state
    /// directory, before anything saves; a state directory not made yet has none.
    static func removeStaleTemporaryFiles(_ store: CalibrationStore, logger: Logger) {
        switch store.removeStaleTemporaryFiles() {
        case .success(let removed) where !removed.isEmpty:
            logger.notice("removed stale temporary files from \(store.directory): \(removed.joined(separator: ", "))")
        case .success:
            break
        case .failure(let error) where error.errno == ENOENT:
            break
        case .failure(let error):
            logger.error("stale temporary files not removed: \(error)")
        }
    }

    /// A simulated HX711's transfer function is known exactly, so until a calibration is
    /// stored it is weighed with that one: `plumscaled --simulate` shows grams at once.
    static func installSimulatedCalibrations(_ configuration: PlumConfiguration, station: Station, logger: Logger) async
    {
        for sensor in configuration.sensors where await !station.isCalibrated(sensor.name) {
            do {
                let scale = try SensorEngines.scaleConfiguration(of: configuration, sensor: sensor)
                guard let calibration = try SimulatedCalibration.exact(for: sensor, scale: scale) else { continue }
                _ = await station.install(calibration, on: sensor.name)
            } catch {
                logger.warning("\(sensor.name): no simulated calibration: \(error)")
            }
        }
    }

    /// The engines' settings from `[scale]`: the station's one conversion, which the simulated
    /// calibrations are fitted with (with each sensor's profile and own keys on top), so no
    /// setting is lost on the way (zero tracking and initial zero once were).
    static func scaleConfiguration(of configuration: PlumConfiguration) throws -> ScaleConfiguration {
        try SensorEngines.scaleConfiguration(of: configuration)
    }

    /// Root, this process's user and, when configured, the admin group's members may change
    /// state.
    /// - Throws: ``SystemError`` when `adminGroup` names no group on this system.
    static func commandAuthorization(adminGroup: String?, unixSocket: String?) throws(SystemError)
        -> CommandAuthorization
    {
        let uid = geteuid()
        let userName = getpwuid(uid).flatMap { $0.pointee.pw_name }.map { String(cString: $0) }
        var group: CommandAuthorization.AdminGroup?
        if let adminGroup {
            guard let entry = getgrnam(adminGroup) else {
                throw SystemError(
                    .invalidConfiguration, operation: "looking up [daemon] admin_group", subject: "'\(adminGroup)'",
                    detail: "no such group",
                    hint:
                        "create it (sudo groupadd \(adminGroup)) and add the users who may zero, tare and calibrate, "
                        + "or remove admin_group"
                )
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
        guard let name = configuration.daemon.mtsicsSensor ?? configuration.sensors.first?.name else { return nil }
        // The balance shows that sensor's own division and capacity (its profile may set them).
        let settings = configuration.scaleSettings(for: try configuration.sensor(named: name))
        let balance = StationBalance(
            station: station, sensor: name, division: try Division(grams: settings.division),
            capacityGrams: settings.capacity)
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

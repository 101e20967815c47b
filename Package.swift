// swift-tools-version:6.1
import PackageDescription

// Dependency direction (docs/images/modules.svg is drawn from this file by docs/tools/module-graph;
// .ci/check-package checks each target lists exactly what it imports):
//   CPlumSystem → PlumSystem (errno, SystemError, syscalls, socket addresses, monotonic time)
//   CGPIOD, CI2C → CPlumShim → PlumHardware (on PlumSystem) → PlumDrivers → PlumDaemonConfig ← PlumSettings
//   PlumSystem alone → PlumTransport, PlumClient: no GPIO or I2C library
//   PlumSettings (TOML, [scale], [mqtt], [web]) alone → plumscale-mqtt, plumscale-web: no hardware
//   PlumDrivers → PlumSimulation; PlumDaemonConfig + PlumSimulation → PlumSensors → plumscaled, plumscale
//   PlumCore (the weighing engine) depends on nothing: pure; PlumStore (its state on disk) on
//   PlumCore and PlumSystem's file calls;
//   PlumProtocol (wire formats) depends on nothing.
let package = Package(
    name: "PlumScale",
    products: [
        .executable(name: "plumscale", targets: ["plumscale"]),
        .executable(name: "plumscaled", targets: ["plumscaled"]),
        .executable(name: "plumscale-mqtt", targets: ["plumscale-mqtt"]),
        .executable(name: "plumscale-display", targets: ["plumscale-display"]),
        .library(name: "PlumCore", targets: ["PlumCore", "PlumStore"]),
        .library(name: "PlumDrivers", targets: ["PlumDrivers", "PlumSimulation"]),
        .library(name: "PlumClient", targets: ["PlumClient"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The history store, written by plumscale-web and read by `plumscale history`.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0")
    ],
    targets: [
        // libgpiod: 1.6 on Debian 12 / Raspberry Pi OS bookworm, 2.x on Debian 13.
        // PKG_CONFIG_PATH may point at a private libgpiod 2 prefix (see .ci/build-libgpiod2).
        .systemLibrary(
            name: "CGPIOD",
            pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        // libi2c ships no .pc file; the module map links `i2c`.
        .systemLibrary(
            name: "CI2C",
            providers: [.apt(["libi2c-dev"])]
        ),
        // What Glibc's module map leaves out and PlumSystem needs: errno names, accept4, eventfd.
        .target(name: "CPlumSystem"),
        // The one system layer, in the manner of swift-system: Errno, SystemError with its hints,
        // the syscall wrappers, Unix and IPv4/IPv6 socket addresses, monotonic time. The
        // hardware, the transport, the client and the tests all build on it.
        .target(name: "PlumSystem", dependencies: ["CPlumSystem"]),
        // The one hardware C shim: version-neutral plum_gpio_* and plum_i2c_* functions.
        .target(
            name: "CPlumShim",
            dependencies: ["CGPIOD", "CI2C"],
            // A C target includes headers rather than importing modules, so CI2C's module-map
            // `link "i2c"` never reaches the linker; libgpiod comes in through pkg-config.
            linkerSettings: [.linkedLibrary("i2c")]
        ),
        .target(
            name: "PlumHardware",
            dependencies: ["CPlumShim", "PlumSystem"]
        ),
        .target(
            name: "PlumDrivers",
            dependencies: ["PlumHardware"]
        ),
        .target(
            name: "PlumSimulation",
            dependencies: ["PlumHardware", "PlumDrivers", "PlumSystem"]
        ),
        // `plumscale setup`'s hardware probe: the board, GPIO chips, I2C buses, ADS1115s by their
        // reset value, IIO devices, and a DOUT watch that tells an HX711's rate or its miswiring.
        .target(name: "PlumProbe", dependencies: ["PlumHardware", "PlumDrivers", "PlumSystem"]),
        // The weighing engine: pure, no I/O.
        .target(name: "PlumCore"),
        // The engine's state on disk: calibrations, zero and tare, runtime settings, sessions, each
        // a checksummed file written by PlumSystem's one durable write.
        .target(name: "PlumStore", dependencies: ["PlumCore", "PlumSystem"]),
        // Wire formats: JSON-lines requests and reports, MT-SICS, binary frames. No I/O.
        .target(name: "PlumProtocol"),
        // The one way a program talks to plumscaled (as gpsd's libgps): socket discovery, typed
        // requests and reports, blocking and async. Plain POSIX sockets, no NIO.
        .target(name: "PlumClient", dependencies: ["PlumProtocol", "PlumSystem"]),
        // plumscale.toml as a file, with no hardware in sight: TOML read with file-and-line
        // errors, and the tables every service reads ([scale], [mqtt], [web]). plumscale-mqtt
        // and plumscale-web depend on this alone, so they link no GPIO or I2C library.
        .target(
            name: "PlumSettings",
            dependencies: ["PlumSystem", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // plumscaled's configuration parsed into typed values that carry file and line: sensors
        // in the drivers' own types, the cue, alerts, the daemon's settings. Opens nothing.
        .target(
            name: "PlumDaemonConfig",
            dependencies: [
                "PlumSettings", "PlumHardware", "PlumDrivers",
                .product(name: "TOMLKit", package: "TOMLKit")
            ]
        ),
        // Sources built from the configuration: the factory, shared-chip locks, sensor identity
        // and kind, simulated calibrations. A new source kind is added here.
        .target(
            name: "PlumSensors",
            dependencies: [
                "PlumDaemonConfig", "PlumSettings", "PlumCore", "PlumDrivers", "PlumHardware",
                "PlumSimulation",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The station: an engine per sensor fed by its sampler, calibration sessions, waits,
        // reload. Talks in typed PlumProtocol reports; knows no sockets and no NIO.
        .target(
            name: "PlumStation",
            dependencies: [
                "PlumProtocol", "PlumCore", "PlumStore", "PlumDaemonConfig", "PlumSensors", "PlumDrivers",
                "PlumHardware", "PlumSystem",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The transport: listeners (bound or passed by systemd), sessions, the fan-out hub with
        // bounded per-client queues, authorization, sd_notify and the watchdog. Knows no engine;
        // the one library module that imports NIO.
        .target(
            name: "PlumTransport",
            dependencies: [
                "PlumProtocol", "PlumSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle")
            ]
        ),
        // The composition: configuration → sensors → station ⇄ transport, as services. Shared
        // by plumscaled and `plumscale demo`.
        .target(
            name: "PlumScaleDaemon",
            dependencies: [
                "PlumStation", "PlumTransport", "PlumSensors", "PlumDaemonConfig", "PlumSettings", "PlumProtocol",
                "PlumCore", "PlumStore",
                "PlumDrivers", "PlumHardware",
                "PlumSystem",  // DaemonSocketPath: the daemon binds where clients look
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle")
            ]
        ),
        .executableTarget(
            name: "plumscaled",
            dependencies: [
                // No swift-argument-parser: DaemonCommandLine reads its four options.
                "PlumScaleDaemon", "PlumDaemonConfig", "PlumSystem",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // epoll for the benchmark's client swarm (Glibc's module map leaves it out).
        .systemLibrary(name: "CEpoll", path: "Benchmarks/CEpoll"),
        // Benchmarks: the peers' filters, workloads and metrics.
        .target(
            name: "PlumBench", dependencies: ["PlumCore", "PlumSimulation", "PlumDrivers", "PlumHardware"],
            path: "Benchmarks/PlumBench"),
        .executableTarget(
            name: "plumscale-bench",
            dependencies: [
                "PlumBench", "PlumDrivers", "PlumSimulation", "PlumCore", "PlumStation", "PlumProtocol", "CEpoll",
                "PlumClient", "PlumSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            path: "Benchmarks/plumscale-bench"
        ),
        // What the CLI prints: readings, the watch gauge, status, sessions, counts and verdicts,
        // as text (escaped where it came from the wire); the program only prints it.
        .target(name: "PlumConsole", dependencies: ["PlumCore", "PlumProtocol", "PlumHistory"]),
        // `plumscale setup` as a library: the probe's use, the wizard's logic, the answers, the
        // configuration's rendering and durable write, and the root-run `--serve` protocol. The
        // CLI keeps a thin SetupCommand; its tests are PlumSetupTests.
        .target(
            name: "PlumSetup",
            dependencies: [
                "PlumDaemonConfig", "PlumSettings", "PlumHardware", "PlumProtocol", "PlumClient", "PlumSystem",
                "PlumProbe",
                // `plumscale setup --answers` reads its answers with the configuration's own reader.
                .product(name: "TOMLKit", package: "TOMLKit")
            ]
        ),
        .executableTarget(
            name: "plumscale",
            dependencies: [
                "PlumDaemonConfig", "PlumSettings", "PlumSensors", "PlumSimulation", "PlumDrivers", "PlumHardware",
                "PlumProtocol",
                "PlumCore", "PlumClient", "PlumSystem",
                "PlumScaleDaemon",
                "PlumProbe",  // `plumscale setup --probe` and `--check`
                "PlumSetup",
                "PlumConsole",  // what it prints
                "PlumHistory",  // `plumscale history` reads plumscale-web's store; plumscaled never links it
                "PlumDisplay",  // `plumscale demo --display`: the simulated OLED in the terminal
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),

        // MQTT and Home Assistant: a separate process, so plumscaled links none of it.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(name: "PlumMQTT", dependencies: ["CMosquitto", "PlumSystem"]),
        .target(
            name: "PlumHomeAssistant",
            dependencies: ["PlumMQTT", "PlumProtocol", .product(name: "Logging", package: "swift-log")]
        ),
        // plumscale-mqtt's service: its settings from the file and the flags (`BridgeSetup`), and
        // the bridge's link to the daemon through PlumClient (`PlumClientLink`).
        .target(
            name: "PlumMQTTService",
            dependencies: [
                "PlumHomeAssistant", "PlumMQTT", "PlumSettings", "PlumProtocol", "PlumClient",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .executableTarget(
            name: "plumscale-mqtt",
            dependencies: [
                "PlumMQTTService", "PlumHomeAssistant", "PlumMQTT", "PlumSettings", "PlumSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The bridge's benchmark: latency through a real broker, the bridge's CPU and memory. It
        // starts the broker, daemon and bridge with the tests' fixtures (it ships in no package).
        .executableTarget(
            name: "plumscale-mqtt-bench",
            dependencies: [
                "PlumMQTT", "PlumTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            path: "Benchmarks/plumscale-mqtt-bench"
        ),
        // What tests share (as NIOTestUtils is for swift-nio): temporary directories, waits with
        // deadlines, child processes, a real plumscaled on a private socket.
        // The `.ownThreads` test trait: tests that block or compute for long run on threads of
        // their own, off the concurrency pool. Apart from PlumTestSupport, since it imports
        // Testing, which the benchmarks that share the fixtures do not link.
        .target(name: "PlumTestThreads", dependencies: ["PlumTestSupport"]),
        .target(
            name: "PlumTestSupport",
            dependencies: [
                "PlumClient", "PlumMQTT", "PlumProtocol", "PlumSystem", "PlumCore",
                .product(name: "Logging", package: "swift-log")
            ]
        ),

        // Fuzz targets (docs/testing.md, "Fuzzing"): each is a tool that replays the inputs named
        // on its command line, and a libFuzzer target when Tests/fuzz/run.sh builds it with
        // --sanitize fuzzer into .build-fuzz.
        .target(name: "FuzzSupport", dependencies: ["PlumSystem"], path: "Sources/fuzz-support"),
        .executableTarget(name: "fuzz-request", dependencies: ["FuzzSupport", "PlumProtocol"]),
        .executableTarget(name: "fuzz-mtsics", dependencies: ["FuzzSupport", "PlumProtocol"]),
        .executableTarget(name: "fuzz-config", dependencies: ["FuzzSupport", "PlumDaemonConfig", "PlumHardware"]),
        .executableTarget(name: "fuzz-trace", dependencies: ["FuzzSupport", "PlumSimulation", "PlumDrivers"]),
        .executableTarget(name: "fuzz-calibration", dependencies: ["FuzzSupport", "PlumCore", "PlumStore"]),

        .testTarget(name: "PlumTestSupportTests", dependencies: ["PlumTestSupport"]),
        .testTarget(name: "PlumTestThreadsTests", dependencies: ["PlumTestThreads", "PlumTestSupport", "PlumSystem"]),
        .testTarget(name: "PlumHardwareTests", dependencies: ["PlumHardware", "PlumTestSupport"]),
        // The probe's parsers on fake sysfs trees, its DOUT watch on the simulated HX711 and the
        // miswired-line models.
        .testTarget(
            name: "PlumProbeTests",
            dependencies: ["PlumProbe", "PlumSimulation", "PlumDrivers", "PlumHardware", "PlumTestSupport"]
        ),
        // The history store (SQLite through GRDB): written by plumscale-web, read by it and by
        // `plumscale history`. plumscaled never links it.
        .target(
            name: "PlumHistory",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "PlumDriversTests",
            dependencies: [
                "PlumDrivers", "PlumSimulation", "PlumHardware", "PlumCore", "PlumTestSupport", "PlumTestThreads"
            ]
        ),
        .testTarget(
            name: "PlumSimulationTests",
            dependencies: ["PlumSimulation", "PlumDrivers", "PlumHardware", "PlumTestSupport", "PlumTestThreads"]
        ),
        .testTarget(
            name: "PlumCoreTests",
            dependencies: [
                "PlumCore", "PlumTestSupport", "PlumTestThreads",
                .product(name: "PropertyBased", package: "swift-property-based")
            ]
        ),
        // A child process for PlumStoreTests' kill -9 test: saves zero and tare without end.
        .executableTarget(
            name: "plumstore-state-writer", dependencies: ["PlumCore", "PlumStore"], path: "Tests/PlumStoreStateWriter"),
        .testTarget(
            name: "PlumStoreTests",
            dependencies: ["PlumStore", "PlumCore", "plumstore-state-writer", "PlumTestSupport", "PlumSystem"]
        ),
        .testTarget(
            name: "PlumProtocolTests",
            dependencies: ["PlumProtocol", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "PlumClientTests",
            dependencies: [
                "PlumClient", "PlumProtocol", "PlumSystem", "PlumTestSupport", "PlumTestThreads", "plumscaled"
            ]
        ),
        .testTarget(name: "PlumSystemTests", dependencies: ["PlumSystem", "PlumTestSupport"]),
        .testTarget(
            name: "PlumDaemonConfigTests",
            dependencies: ["PlumDaemonConfig", "PlumSettings", "PlumDrivers", "PlumHardware"]
        ),
        // The shared file's tables; plumscaled's reading of the same file is checked beside them,
        // so a mistake in [mqtt] or [web] is refused alike by every service.
        .testTarget(name: "PlumSettingsTests", dependencies: ["PlumSettings", "PlumDaemonConfig"]),
        .testTarget(
            name: "PlumSensorsTests",
            dependencies: [
                "PlumSensors", "PlumDaemonConfig", "PlumCore", "PlumDrivers", "PlumSimulation", "PlumHardware",
                "PlumTestSupport"
            ]
        ),
        .testTarget(
            name: "PlumStationTests",
            dependencies: [
                "PlumStation", "PlumProtocol", "PlumDrivers", "PlumSimulation", "PlumHardware", "PlumCore", "PlumStore",
                "PlumDaemonConfig", "PlumSensors", "PlumTestSupport", "PlumTestThreads", "PlumSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based")
            ]
        ),
        .testTarget(
            name: "PlumTransportTests",
            dependencies: [
                "PlumTransport", "PlumProtocol", "PlumSystem",
                "PlumTestSupport", "PlumTestThreads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .testTarget(
            name: "PlumScaleDaemonTests",
            dependencies: [
                "PlumScaleDaemon", "PlumStation", "PlumTransport", "PlumProtocol", "PlumClient", "PlumDrivers",
                "PlumSimulation",
                "PlumHardware", "PlumCore", "PlumStore", "PlumDaemonConfig", "PlumSensors", "PlumSystem",
                "PlumTestSupport", "PlumTestThreads",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The MQTT client against a real mosquitto.
        .testTarget(name: "PlumMQTTTests", dependencies: ["PlumMQTT", "PlumTestSupport"]),
        // The bridge's logic in process: discovery, policies, commands, availability, over a real
        // broker with a scripted daemon link.
        .testTarget(
            name: "PlumHomeAssistantTests",
            dependencies: [
                "PlumHomeAssistant", "PlumMQTT", "PlumProtocol", "PlumTestSupport",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // plumscale-mqtt as a child process between a real plumscaled and a real broker, and its
        // setup from the configuration and the credentials.
        .testTarget(
            name: "PlumMQTTServiceTests",
            dependencies: [
                "PlumMQTTService", "PlumHomeAssistant", "PlumMQTT", "PlumSettings", "PlumDaemonConfig", "PlumClient",
                "PlumProtocol", "PlumTestSupport", .product(name: "Logging", package: "swift-log")
            ]
        ),
        .testTarget(
            name: "plumscale-mqttTests",
            dependencies: [
                "plumscale-mqtt", "plumscaled", "PlumMQTT", "PlumSettings", "PlumClient", "PlumProtocol",
                "PlumTestSupport"
            ]
        ),
        // The history store on its own: the recorder's rules on a real SQLite file.
        // GRDB itself to write a file as the previous schema did, to prove it migrates.
        .testTarget(
            name: "PlumHistoryTests",
            dependencies: ["PlumHistory", "PlumTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "PlumBenchTests", dependencies: ["PlumBench", "PlumHardware", "PlumCore", "PlumDrivers"]),
        // Setup's logic: the answers, the rendered file and its durable write, the root door.
        .testTarget(
            name: "PlumSetupTests",
            dependencies: ["PlumSetup", "PlumDaemonConfig", "PlumSettings", "PlumSystem", "PlumTestSupport"]
        ),
        // The CLI: its texts, its commands against a real plumscaled, in a terminal.
        .testTarget(
            name: "PlumConsoleTests",
            dependencies: [
                "PlumConsole", "PlumCore", "PlumProtocol", "PlumHistory",
                // One rounding, everywhere: the station's report, MT-SICS and Home Assistant's state
                // are compared with the CLI's text.
                "PlumStation", "PlumScaleDaemon", "PlumHomeAssistant"
            ]
        ),
        // plumscale-display's library: what a local panel shows (a pure board of the daemon's
        // reports, layouts for pixels and characters) and the panels it drives.
        .target(
            name: "PlumDisplay",
            dependencies: [
                "PlumProtocol", "PlumClient", "PlumSettings", "PlumDrivers", "PlumHardware", "PlumSimulation",
                "PlumSystem",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // A client of plumscaled, like the web service and the bridge: the weight on an SSD1306
        // OLED, an HD44780 LCD or a framebuffer, so the scale is read without a phone.
        .executableTarget(
            name: "plumscale-display",
            dependencies: [
                "PlumDisplay", "PlumClient", "PlumSettings", "PlumSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle")
            ]
        ),
        // The board and the layouts against stored PBM frames; the panels on their chip models.
        .testTarget(
            name: "PlumDisplayTests",
            dependencies: [
                "PlumDisplay", "PlumProtocol", "PlumDrivers", "PlumSimulation", "PlumHardware", "PlumSystem"
            ],
            exclude: ["Frames"]
        ),
        // plumscale-display as a child process beside a real plumscaled on a real socket.
        .testTarget(
            name: "plumscale-displayTests",
            dependencies: [
                "plumscale-display", "plumscaled", "PlumTestSupport"
            ]
        ),
        .testTarget(
            name: "plumscaleTests",
            dependencies: [
                "plumscale", "plumscaled", "PlumProtocol", "PlumTestSupport", "PlumTestThreads",
                "PlumHistory",  // a history file for `plumscale status` to read
                // `plumscale setup`'s files, loaded as the services load them
                "PlumDaemonConfig", "PlumSettings"
            ]
        ),
        // plumscaled as a child process on real sockets: lifecycle, authorization, MT-SICS,
        // outages, buttons, reloads, a kill -9. Clients through PlumClient and the CLI.
        .testTarget(
            name: "plumscaledTests",
            dependencies: [
                "plumscaled", "plumscale", "PlumClient", "PlumCore", "PlumStore", "PlumProtocol", "PlumTestSupport",
                "PlumTestThreads", "PlumSystem"
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

// plumscale-web: HTTP, WebSocket, login and Prometheus metrics. Its packages (Hummingbird, and
// BoringSSL through HummingbirdTesting) are most of a clean build, and the hardware path needs
// none of them, so a build that proves only that path leaves them out: CI's second build, against
// libgpiod 2.x, sets PLUMSCALE_WITHOUT_WEB=1. Every other build has them.
if Context.environment["PLUMSCALE_WITHOUT_WEB"] != "1" {
    package.dependencies += [
        // Without its ConfigurationSupport trait (swift-configuration, which nothing here uses):
        // SwiftPM 6.2.3, the arm64 cross build's, drops that trait-conditional dependency from
        // the graph at random when one parent enables the trait and others do not (hummingbird's
        // other dependents here ask for no traits), and stops with "product 'Configuration'
        // required by package 'hummingbird' ... not found" (hummingbird issue 769).
        .package(
            url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1",
            traits: ["FullFoundation"]
        ),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Hummingbird's own header types, named by the web's CSRF header.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0")
    ]
    package.targets += [
        // The browser front end, metrics and history recorder: a client of plumscaled.
        .target(
            name: "PlumWeb",
            dependencies: [
                "PlumProtocol", "PlumHistory", "PlumClient", "PlumSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                // Its server builder: plumscale-web's child channel puts a deadline in front.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Its own threads for bcrypt and SQLite (BlockingWork), off Swift's shared pool.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio")
            ],
            // The page as files, compiled into the binary (PageAssets): no bundle to install.
            resources: [
                .embedInCode("Assets/index.html"), .embedInCode("Assets/app.css"), .embedInCode("Assets/app.js"),
                .embedInCode("Assets/session.js"), .embedInCode("Assets/setup.js")
            ]
        ),
        .executableTarget(
            name: "plumscale-web",
            dependencies: [
                "PlumWeb", "PlumSettings", "PlumClient", "PlumHistory", "PlumSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),

        // The web's benchmark: WebSocket fan-out from a real plumscaled, plumscale-web's CPU and memory.
        .executableTarget(
            name: "plumscale-web-bench",
            dependencies: [
                "PlumTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Benchmarks/plumscale-web-bench"
        ),
        // plumscale-web as a child process: the password tool, credentials, a LAN peer in its own
        // network namespace.
        .testTarget(
            name: "plumscale-webTests",
            dependencies: [
                "plumscale-web", "plumscaled", "PlumWeb", "PlumHistory", "PlumClient", "PlumSystem",
                "PlumTestSupport", "PlumTestThreads"
            ]
        ),
        .testTarget(
            name: "PlumWebTests",
            dependencies: [
                "PlumWeb", "PlumHistory", "PlumProtocol", "PlumClient",
                "PlumSystem",
                "PlumTestSupport",
                "plumscaled",  // DaemonLinkTests: the link against a real daemon
                "plumscale",  // SetupRoutesTests: `plumscale setup --serve` behind the setup socket
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log")
            ]
        )
    ]
}

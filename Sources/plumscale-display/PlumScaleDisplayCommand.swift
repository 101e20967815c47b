import ArgumentParser
import Logging
import PlumClient
import PlumDisplay
import PlumSettings
import PlumSystem
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

@main
struct PlumScaleDisplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plumscale-display",
        abstract: "The weight on a local panel: an SSD1306 OLED, an HD44780 LCD or a framebuffer.",
        discussion: """
            A client of plumscaled over its socket, like plumscale-web; it reconnects when the \
            daemon restarts. The panel is the [display] table of the configuration file \
            (docs/display.md). While the daemon is away it shows so, and where the page is.

            --check draws one test screen and exits: to try the wiring before enabling the unit.

            Exit codes: 0 stopped; 1 configuration or panel error; 64 usage error.
            """,
        version: "0.1.0")

    @Option(help: ArgumentHelp("The configuration file; its [display] and [web] tables are read.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("plumscaled's socket (default: as the client library finds it).", valueName: "path"))
    var socket: String?

    @Flag(help: "Draw the test screen once on the panel and exit.")
    var check = false

    @Option(
        help: ArgumentHelp(
            "With --check on a framebuffer: write what the device holds afterwards as a PPM image.",
            valueName: "file"))
    var checkOut: String?

    func run() async throws {
        var logger = Logger(label: "plumscale-display")
        logger.logLevel = .info
        let path = config ?? "/etc/plumscale/plumscale.toml"
        let settings: DisplaySettings
        let web: WebSettings
        do {
            guard let display = try DisplaySettings.load(path: path) else {
                complain(
                    "\(path) has no [display] table; add one, such as [display] kind = \"ssd1306\" with bus and "
                        + "address (docs/display.md), or run `plumscale setup`")
                throw ExitCode(1)
            }
            settings = display
            web = try WebSettings.load(path: path)
        } catch let error as ConfigurationError {
            complain("\(error)")
            throw ExitCode(1)
        }
        let panelLogger = logger
        var panel: any DisplayPanel
        do {
            panel = try PanelFactory.make(settings) { panelLogger.error("\($0)") }
        } catch {
            complain("\(error)")
            throw ExitCode(1)
        }
        if check {
            try runCheck(&panel, settings: settings)
            return
        }
        let board = DisplayBoard(sensors: settings.sensors, pageAddress: Self.pageAddress(web))
        let announcer = ServiceAnnouncer(
            name: "plumscale-display", version: Self.configuration.version,
            detail: ["panel": .text(panel.description)])
        let link = DisplayService.link(socketPath: socket, announcing: announcer)
        let service = DisplayService(
            link: link, board: board, alternate: .seconds(settings.alternateSeconds), logger: logger)
        logger.info("plumscale-display on \(panel.description), following \(link.resolvedSocketPath)")
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let running = Task { await Self.drive(service, &panel) }
        for await _ in signals {
            running.cancel()
            break
        }
        await running.value
        logger.info("stopped: \(service.statistics.summary)")
    }

    /// Runs the service on the panel the factory made (an existential, opened here).
    static func drive(_ service: DisplayService, _ panel: inout any DisplayPanel) async {
        await service.run(panel: &panel)
    }

    private func runCheck(_ panel: inout any DisplayPanel, settings: DisplaySettings) throws {
        do {
            try panel.start()
            let bytes = try panel.show(DisplayCheck.picture, phase: 0)
            print("plumscale-display: drew the check screen on \(panel.description) (\(bytes) bytes)")
            if let checkOut {
                guard let image = try DisplayCheck.readBack(panel) else {
                    complain("--check-out reads a framebuffer back; \(panel.description) is none")
                    throw ExitCode(1)
                }
                if let errno = FrameFile(path: checkOut).write(image) {
                    complain("writing \(checkOut): \(errno)")
                    throw ExitCode(1)
                }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            complain("\(error)")
            throw ExitCode(1)
        }
    }

    /// Where the page is, for the screen shown while there is no weight: the host's name on the
    /// LAN when the page serves it, else the loopback address it listens on.
    static func pageAddress(_ web: WebSettings) -> String {
        let port = web.listen.port
        guard web.lanReadOnly || !web.listen.isLoopback else { return "page: localhost:\(port)" }
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "page: port \(port)" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(name).local:\(port)"
    }
}

func complain(_ message: String) {
    Syscalls.writeStandardError("plumscale-display: \(message)\n")
}

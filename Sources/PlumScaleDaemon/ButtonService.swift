package import Logging
package import PlumDaemonConfig
package import PlumHardware
package import PlumSensors
package import PlumStation
internal import ServiceLifecycle

/// A `[[button]]` for the life of the service group: its watcher's thread runs until the
/// group shuts down, and each press tares (short) or zeroes (long) the button's sensors, whose
/// watchers get a `BUTTON` report of each outcome.
///
/// Generic over the line as the watcher is: libgpiod in plumscaled, a modelled button in the
/// tests, which so run the press → station → socket path plumscaled runs.
package struct ButtonService<Line: GPIOEdgeLine & Sendable>: Service {
    package let watcher: ButtonWatcher<Line>

    /// Watches `line` for `button`'s presses and says what each does to `station`.
    package init(_ button: ButtonSettings, line: Line, name: String, station: Station, logger: Logger) {
        let sensors = button.sensors
        watcher = ButtonWatcher(
            line: line, debounce: .milliseconds(button.debounceMilliseconds),
            longPress: .milliseconds(button.longPressMilliseconds), name: name, logger: logger
        ) { gesture in
            Task { await station.buttonPressed(gesture, sensors: sensors) }
        }
    }

    package func run() async throws {
        watcher.start()
        try? await gracefulShutdown()
        watcher.stop()
    }
}

extension ButtonService where Line == GPIOInputRequest {
    /// Opens the button's GPIO line and says what each press does to `station`.
    /// - Throws: ``HardwareError`` when the line cannot be opened.
    init(_ button: ButtonSettings, station: Station, logger: Logger) throws(HardwareError) {
        let opened = try GPIOChip(button.chip)
        let request = try opened.requestInput(
            button.line, consumer: "plumscale-button", bias: button.bias, edges: .both, activeLow: button.activeLow)
        self.init(
            button, line: request, name: "button on \(button.chip) line \(button.line)", station: station,
            logger: logger)
    }
}

internal import Logging
internal import PlumConfig
internal import PlumHardware
internal import PlumStation
internal import ServiceLifecycle

/// A `[[button]]` for the life of the service group: its watcher's thread runs until the
/// group shuts down, and each press tares (short) or zeroes (long) the button's sensors.
struct ButtonService: Service {
    let watcher: ButtonWatcher<GPIOInputRequest>

    /// Opens the button's line and says what each press does to `station`.
    /// - Throws: ``HardwareError`` when the line cannot be opened.
    init(_ button: ButtonSettings, station: Station, logger: Logger) throws(HardwareError) {
        let sensors = button.sensors
        watcher = try ButtonWatcher(
            chip: button.chip, line: button.line, bias: button.bias, activeLow: button.activeLow,
            debounce: .milliseconds(button.debounceMilliseconds),
            longPress: .milliseconds(button.longPressMilliseconds),
            logger: logger
        ) { gesture in
            Task { await station.buttonPressed(gesture, sensors: sensors) }
        }
    }

    func run() async throws {
        watcher.start()
        try? await gracefulShutdown()
        watcher.stop()
    }
}

import Logging
package import PlumCore
import PlumHardware
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a push button on a GPIO line, on a thread of its own, and says what each press
/// meant (``ButtonGesture``): a short press, or a long one as soon as it has been held long
/// enough.
///
/// The line is requested with both edges; the kernel's time stamps date each change, so a
/// busy machine that wakes the thread late still measures the press the user made. Between
/// edges the thread looks every 10 ms, which is when a held press becomes long. Generic over
/// the line protocol: libgpiod on a Pi, a modelled button in the tests.
package final class ButtonWatcher<Line: GPIOEdgeLine & Sendable>: Sendable {
    private let line: Line
    private let debounce: Duration
    private let longPress: Duration
    /// "button on gpiochip0 line GPIO27", for the log.
    package let name: String
    private let logger: Logger
    private let onPress: @Sendable (ButtonGesture) -> Void
    private let stopRequested = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let watching = Atomic<Bool>(false)

    /// The thread has read the line's level and is waiting for edges: a press from now on counts.
    package var isWatching: Bool { watching.load(ordering: .acquiring) }

    /// - Parameters:
    ///   - line: the line, requested as an input with both edges (active-low applied).
    ///   - onPress: called on the watcher's thread for each press; must return at once.
    package init(
        line: Line, debounce: Duration, longPress: Duration, name: String, logger: Logger,
        onPress: @escaping @Sendable (ButtonGesture) -> Void
    ) {
        self.line = line
        self.debounce = debounce
        self.longPress = longPress
        self.name = name
        self.logger = logger
        self.onPress = onPress
    }

    /// Starts the thread; a second call does nothing.
    package func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // A C thread entry cannot name a generic type: it gets a plain closure in a box.
        let box = Unmanaged.passRetained(ThreadBody { self.run() })
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        if result == 0 {
            pthread_detach(thread)
        } else {
            box.release()
            logger.error("\(name): cannot start its thread: \(Errno(rawValue: result)); the button does nothing")
        }
    }

    /// Asks the thread to stop; it does within 10 ms.
    package func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    private var stopping: Bool { stopRequested.load(ordering: .acquiring) }

    private func run() {
        let pressedAtStart = (try? line.value()) ?? false
        if pressedAtStart {
            logger.warning(
                "\(name) reads pressed at start: it acts once it has been released (if it never is, check active_low)")
        }
        var presses = ButtonPresses(
            debounce: debounce.nanoseconds, longPress: longPress.nanoseconds, pressedAtStart: pressedAtStart)
        var events: [EdgeEvent] = []
        events.reserveCapacity(64)
        var failing = false
        watching.store(true, ordering: .releasing)
        defer { watching.store(false, ordering: .releasing) }
        while !stopping {
            do {
                if try line.waitForEdgeEvents(timeout: .milliseconds(10)) {
                    events.removeAll(keepingCapacity: true)
                    try line.readEdgeEvents(into: &events)
                    for event in events {
                        if let gesture = presses.edge(pressed: event.kind == .rising, at: event.timestamp.nanoseconds) {
                            onPress(gesture)
                        }
                    }
                }
                if let gesture = presses.tick(now: SystemMonotonicClock().now().nanoseconds) { onPress(gesture) }
                if failing {
                    failing = false
                    logger.notice("\(name) works again")
                }
            } catch {
                if !failing {
                    failing = true
                    logger.error("\(name): \(error); trying again every second")
                }
                usleep(1_000_000)
            }
        }
    }
}

/// What a thread started with `pthread_create` runs.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

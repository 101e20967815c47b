package import PlumDrivers
internal import PlumHardware
package import PlumSystem
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// One sensor's sampler: a dedicated thread that blocks on the hardware and hands samples to
/// async code through a bounded buffer.
///
/// The thread never waits on a consumer: when the buffer is full the oldest sample is dropped
/// and counted. A failing sensor (not ready, EIO, a chip that went away) is reported as a
/// state, closed, and reopened with back-off until it works again; nothing a sensor does can
/// stop the other samplers or the daemon.
package final class Sampler: Sendable {
    /// What the sampler delivers, in order.
    package enum Event: Sendable {
        case sample(Sample)
        case state(SensorState)
    }

    package let name: String
    /// Samples and state changes; finishes when the sampler stops.
    package let events: AsyncStream<Event>

    private let open: @Sendable () throws(SensorError) -> any SampleSource
    private let backoff: BackOff
    private let setup: @Sendable () -> [String]
    private let continuation: AsyncStream<Event>.Continuation
    private let shared: Mutex<Shared>
    private let stopRequested = Atomic<Bool>(false)

    private struct Shared: Sendable {
        var status: SamplerStatus
        var recentTimes: [UInt64] = []
        var started = false
        var threadNotes: [String] = []
    }

    /// - Parameters:
    ///   - name: the sensor's name.
    ///   - bufferCapacity: samples held for a slow consumer before the oldest are dropped.
    ///   - backoff: the wait between attempts to reopen a faulted sensor.
    ///   - setup: run on the sampler thread before anything else (real-time priority, memory
    ///     locking); returns notes to report (such as "real-time priority not permitted").
    ///   - open: opens the sensor; called on the sampler thread, again after each fault.
    package init(
        name: String, bufferCapacity: Int = 1024, backoff: BackOff = .sensorReopen,
        setup: @escaping @Sendable () -> [String] = { [] },
        open: @escaping @Sendable () throws(SensorError) -> any SampleSource
    ) {
        self.name = name
        self.open = open
        self.backoff = backoff
        self.setup = setup
        (events, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(max(1, bufferCapacity)))
        shared = Mutex(
            Shared(
                status: SamplerStatus(
                    name: name, info: nil, state: .starting, statistics: DriverStatistics(), achievedRate: 0,
                    droppedByBuffer: 0, lastProgress: SystemMonotonicClock().now(), faults: 0)))
    }

    /// The current snapshot.
    package var status: SamplerStatus { shared.withLock { $0.status } }

    /// Notes from the thread's setup (for example, that real-time priority was refused).
    package var setupNotes: [String] { shared.withLock { $0.threadNotes } }

    /// True while the thread makes progress: it returned from the hardware (with a sample or an
    /// error) or ticked its retry wait within `stallLimit`. A sampler stuck inside a driver call
    /// is not healthy, and the daemon then stops feeding systemd's watchdog.
    package func isHealthy(now: MonotonicInstant = SystemMonotonicClock().now(), stallLimit: Duration) -> Bool {
        let last = shared.withLock { $0.status.lastProgress }
        return now.nanoseconds(since: last) <= stallLimit.nanoseconds
    }

    /// Starts the thread; a second call does nothing.
    package func start() {
        let first = shared.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let sampler = Unmanaged<Sampler>.fromOpaque(context!).takeRetainedValue()
                sampler.run()
                return nil
            }, box.toOpaque())
        if result != 0 {
            box.release()
            update(.fault(reason: "cannot start the sampler thread: \(Errno(rawValue: result))"))
            continuation.finish()
        } else {
            pthread_detach(thread)
        }
    }

    /// Asks the thread to stop after its current hardware call; `events` finishes when it has.
    package func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    private var stopping: Bool { stopRequested.load(ordering: .acquiring) }

    // MARK: - The thread

    private func run() {
        let notes = setup()
        shared.withLock { $0.threadNotes = notes }
        var attempt = 0
        while !stopping {
            let source: any SampleSource
            do {
                source = try open()
            } catch {
                fault(error, attempt: &attempt)
                continue
            }
            shared.withLock { $0.status.info = source.info }
            if read(from: source) { attempt = 0 } else { break }
        }
        if stopping { update(.stopped) }
        continuation.finish()
    }

    /// Reads until the source fails or the sampler stops.
    /// - Returns: false when the source ended for good (a replay at its end).
    private func read(from source: any SampleSource) -> Bool {
        var state: SensorState = .starting
        while !stopping {
            do {
                let sample = try source.next()
                if state != .ok {
                    state = .ok
                    update(.ok)
                }
                record(sample, statistics: source.statistics)
                if case .dropped = continuation.yield(.sample(sample)) {
                    shared.withLock { $0.status.droppedByBuffer &+= 1 }
                }
            } catch {
                switch error {
                case .notReady:
                    // The driver resets the chip itself; keep the source and keep waiting.
                    let notReady = SensorState.notReady(reason: error.description)
                    if state != notReady {
                        state = notReady
                        update(notReady)
                    }
                    shared.withLock {
                        $0.status.statistics = source.statistics
                        $0.status.lastProgress = SystemMonotonicClock().now()
                    }
                case .endOfData:
                    update(.ended)
                    return false
                case .hardware:
                    var attempt = 0
                    fault(error, attempt: &attempt)
                    return true
                }
            }
        }
        return true
    }

    private func record(_ sample: Sample, statistics: DriverStatistics) {
        shared.withLock { shared in
            shared.status.statistics = statistics
            shared.status.lastProgress = SystemMonotonicClock().now()
            shared.recentTimes.append(sample.time.nanoseconds)
            if shared.recentTimes.count > 64 { shared.recentTimes.removeFirst(shared.recentTimes.count - 64) }
            if let first = shared.recentTimes.first, let last = shared.recentTimes.last, last > first {
                shared.status.achievedRate = Double(shared.recentTimes.count - 1) / (Double(last - first) / 1e9)
            }
        }
    }

    private func fault(_ error: SensorError, attempt: inout Int) {
        shared.withLock {
            $0.status.faults &+= 1
            $0.status.achievedRate = 0
            $0.recentTimes.removeAll()
        }
        update(.fault(reason: error.description))
        wait(backoff.delay(afterFailures: attempt))
        attempt += 1
    }

    /// Waits in short slices so that `stop()` is honoured promptly and the watchdog sees progress.
    private func wait(_ delay: Duration) {
        let clock = SystemMonotonicClock()
        let deadline = clock.now().advanced(byNanoseconds: delay.nanoseconds)
        while !stopping {
            let now = clock.now()
            shared.withLock { $0.status.lastProgress = now }
            guard now < deadline else { return }
            clock.sleep(until: min(deadline, now.advanced(byNanoseconds: 50_000_000)))
        }
    }

    private func update(_ state: SensorState) {
        shared.withLock {
            let previous = $0.status.state
            $0.status.state = state
            // Only not-ready and fault have a reason; the states after them keep it as the last.
            // Its time is when it began: a retry that reports the same fault again keeps it.
            if state.reason != nil, state != previous {
                $0.status.lastFault = state.description
                $0.status.lastFaultTime = UTCTimestamp.now()
            }
        }
        continuation.yield(.state(state))
    }
}

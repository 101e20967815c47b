package import Logging
package import PlumSystem
internal import ServiceLifecycle

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Sends `WATCHDOG=1` at half of systemd's `WatchdogSec=`, but only while the composer's health
/// check says the daemon is healthy, so that a hung sampler gets the daemon restarted.
///
/// Under systemd with `WatchdogSec=`, systemd sets `WATCHDOG_USEC` (and `WATCHDOG_PID`, this
/// process), as `sd_watchdog_enabled(3)` reads them.
package struct WatchdogPinger: Service {
    /// The watchdog timeout systemd expects pings within, or nil when the watchdog is off.
    package let timeout: Duration?
    private let notifier: SystemdNotifier
    private let isHealthy: @Sendable () async -> Bool
    private let logger: Logger

    /// - Parameters:
    ///   - isHealthy: Asked before every ping; a daemon that is not healthy stays silent and
    ///     systemd restarts it when the timeout passes.
    package init(
        environment: [String: String], processID: Int32 = getpid(), notifier: SystemdNotifier,
        logger: Logger = Logger(label: "plumscale.watchdog"), isHealthy: @escaping @Sendable () async -> Bool
    ) throws(SystemError) {
        self.logger = logger
        self.timeout = try Self.timeout(environment: environment, processID: processID)
        self.notifier = notifier
        self.isHealthy = isHealthy
    }

    /// The interval between pings: half the timeout, as sd_watchdog_enabled(3) advises.
    package var interval: Duration? { timeout.map { $0 / 2 } }

    /// Pings until graceful shutdown or cancellation. With the watchdog off it only waits, since
    /// a service that returns early ends its whole `ServiceGroup`.
    package func run() async throws {
        guard let interval else {
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if await isHealthy() {
                    do { try notifier.watchdog() } catch { logger.warning("\(error)") }
                } else {
                    logger.warning("unhealthy: not pinging the systemd watchdog")
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Parses `WATCHDOG_USEC` and `WATCHDOG_PID`.
    /// - Throws: ``SystemError`` `.invalidEnvironment` naming the malformed variable.
    static func timeout(environment: [String: String], processID: Int32) throws(SystemError) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"] else { return nil }
        if let pidText = environment["WATCHDOG_PID"] {
            guard let pid = Int32(pidText), pid > 0 else {
                throw SystemError(
                    .invalidEnvironment, operation: "reading", subject: "WATCHDOG_PID=\"\(pidText)\"",
                    detail: "it must be a process ID")
            }
            // The watchdog is someone else's (a parent that did not unset it).
            guard pid == processID else { return nil }
        }
        guard let microseconds = UInt64(text), microseconds > 0 else {
            throw SystemError(
                .invalidEnvironment, operation: "reading", subject: "WATCHDOG_USEC=\"\(text)\"",
                detail: "it must be a positive number of microseconds", hint: "check WatchdogSec= in plumscaled.service"
            )
        }
        return .microseconds(Int64(clamping: microseconds))
    }
}

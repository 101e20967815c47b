package import Logging
internal import ServiceLifecycle
internal import UnixSignals

/// Calls the composer's reload on every SIGHUP, framed by `RELOADING=1` … `READY=1` as
/// `Type=notify-reload` expects (`systemctl reload plumscaled` sends SIGHUP).
package struct ReloadService: Service {
    private let notifier: SystemdNotifier
    private let reload: @Sendable () async -> String?
    private let logger: Logger

    /// - Parameter reload: Re-reads the configuration; returns a status line for `STATUS=`
    ///   (what was reloaded, or why the old configuration stays), or nil.
    package init(
        notifier: SystemdNotifier, logger: Logger = Logger(label: "plumscale.reload"),
        reload: @escaping @Sendable () async -> String?
    ) {
        self.notifier = notifier
        self.reload = reload
        self.logger = logger
    }

    package func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                do { try notifier.reloading() } catch { logger.warning("\(error)") }
                let status = await reload()
                do { try notifier.ready(status: status) } catch { logger.warning("\(error)") }
            }
        }
    }
}

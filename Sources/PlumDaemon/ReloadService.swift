public import ServiceLifecycle
import UnixSignals

/// Calls the composer's reload on every SIGHUP, framed by `RELOADING=1` … `READY=1` as
/// `Type=notify-reload` expects (`systemctl reload plumscaled` sends SIGHUP).
public struct ReloadService: Service {
    private let notifier: SystemdNotifier
    private let reload: @Sendable () async -> String?

    /// - Parameter reload: Re-reads the configuration; returns a status line for `STATUS=`
    ///   (what was reloaded, or why the old configuration stays), or nil.
    public init(notifier: SystemdNotifier, reload: @escaping @Sendable () async -> String?) {
        self.notifier = notifier
        self.reload = reload
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                try? notifier.reloading()
                let status = await reload()
                try? notifier.ready(status: status)
            }
        }
    }
}

internal import ServiceLifecycle

/// Says the daemon is serving (the log line and systemd's READY=1) from inside the service
/// group, once the group has trapped SIGTERM and SIGINT.
///
/// Said before the group ran, a stop asked for at once (`systemctl stop` right after start, a
/// test sending SIGTERM when it saw READY) found the default action still in place: the daemon
/// died with 143, without closing its clients or saving anything. The group registers its
/// signal handlers before it starts any service, so from here a SIGTERM is a graceful stop.
struct ReadyService: Service {
    let announce: @Sendable () throws -> Void

    func run() async throws {
        try announce()
        // A service that returns ends the group: this one stays until the stop.
        try? await gracefulShutdown()
    }
}

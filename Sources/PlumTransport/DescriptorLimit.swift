#if canImport(Glibc)
    internal import Glibc
#endif

/// The daemon's open-file limit against what its client limit needs.
///
/// Every client is a descriptor. systemd starts services with a soft `RLIMIT_NOFILE` of 1024
/// and a hard limit of 524288, and systemd.exec(5) asks programs that need more, and do not
/// use `select(2)`, to raise the soft limit themselves rather than have units set
/// `LimitNOFILE=`. SwiftNIO uses epoll, so the daemon raises its soft limit as far as the
/// hard limit allows when `max_clients` calls for it.
package enum DescriptorLimit {
    /// Descriptors that are not clients: standard streams, listeners, epoll and eventfds of
    /// the event loops, GPIO requests, I2C buses, IIO files, the journal and sd_notify.
    static let reserve: UInt64 = 64

    /// What `fit(_:)` did.
    package enum Outcome: Equatable {
        /// The soft limit already covered the need.
        case enough(limit: UInt64)
        /// The soft limit was raised.
        case raised(from: UInt64, to: UInt64)
        /// Even the hard limit is below the need: the soft limit was raised to it, and some
        /// clients within `max_clients` may be refused for want of descriptors.
        case short(limit: UInt64, needed: UInt64)
    }

    /// Descriptors needed to serve `clients` JSON clients, and as many MT-SICS clients when
    /// that listener is configured.
    package static func needed(clients: Int, mtsics: Bool) -> UInt64 {
        UInt64(clients) * (mtsics ? 2 : 1) + reserve
    }

    /// The soft limit to ask for, and the outcome, given the current limits: a pure decision
    /// so that every case can be tested without changing the test process's limits.
    package static func decide(needed: UInt64, soft: UInt64, hard: UInt64) -> (newSoft: UInt64?, outcome: Outcome) {
        if soft >= needed { return (nil, .enough(limit: soft)) }
        if hard >= needed { return (needed, .raised(from: soft, to: needed)) }
        return (hard > soft ? hard : nil, .short(limit: max(soft, hard), needed: needed))
    }

    /// Raises this process's soft limit to cover `needed` descriptors, as far as allowed.
    package static func fit(_ needed: UInt64) -> Outcome {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return .short(limit: 0, needed: needed) }
        let (newSoft, outcome) = decide(needed: needed, soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
        guard let newSoft else { return outcome }
        limit.rlim_cur = rlim_t(newSoft)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return .short(limit: UInt64(limit.rlim_cur), needed: needed)
        }
        return outcome
    }
}

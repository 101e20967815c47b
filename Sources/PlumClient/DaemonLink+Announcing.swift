import PlumProtocol

/// The link's side of `?CLIENT` (protocol 1.7): a service announces itself on the WATCH
/// connection, the one it keeps, so the daemon lists it exactly while it is connected.
extension DaemonLink {
    /// Replaces the service's facts (``ServiceAnnouncer/currentDetail``) and sends the
    /// announcement again on the WATCH connection, if one is open; the next connect sends it
    /// anyway. Cheap and never blocking: a line the socket cannot take at once is skipped, as
    /// the next announcement carries the same facts.
    /// - Returns: whether the announcement was sent now.
    @discardableResult
    public func announce(detail: [String: ServiceAnnouncer.DetailValue]) -> Bool {
        guard let announcer else { return false }
        announcer.setDetail(detail)
        guard let reader = shared.withLock({ $0.reader }) else { return false }
        return reader.announceAgain()
    }

    /// Why the daemon refused the last announcement (a bad name, too many services), or nil
    /// when it accepted it or none was sent.
    public var announcementRefusal: String? { shared.withLock { $0.announcementRefusal } }

    /// Connections made since ``run()`` began, this one included.
    public var connectionsMade: Int { shared.withLock { $0.established } }

    /// The announcement for the connection about to be made: its reconnects are the
    /// connections made before it, and stay so for the announcements repeated on it.
    func announcementForNextConnection() -> (@Sendable () -> Request?)? {
        guard announcer != nil else { return nil }
        shared.withLock { $0.reconnects = $0.established }
        return { [weak self] in self?.currentAnnouncement() }
    }

    func currentAnnouncement() -> Request? {
        guard let announcer else { return nil }
        return .client(announcer.announcement(reconnects: shared.withLock { $0.reconnects }))
    }

    /// Takes the daemon's answer to an announcement out of the stream of reports: true for a
    /// `CLIENT` answer or an `ERROR` about `?CLIENT`, which no subscriber asked for.
    func announcementAnswer(_ report: Report) -> Bool {
        switch report {
        case .client:
            shared.withLock { $0.announcementRefusal = nil }
            return true
        case .error(let message) where message.hasPrefix("?CLIENT"):
            shared.withLock { $0.announcementRefusal = message }
            return true
        default:
            return false
        }
    }
}

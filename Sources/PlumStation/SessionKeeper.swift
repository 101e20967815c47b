internal import Logging
internal import PlumCore
internal import PlumProtocol
internal import PlumStore

/// The weighing sessions (docs/items.md): `?SESSION` starts, stops, shows and lists them, and
/// the running one records the `placed` items of its sensor.
///
/// A value the station keeps beside its channels. Every change is saved at once to
/// `sessions.json` in the state directory (``SessionStore``: temporary file, fsync, rename),
/// so a running session goes on after a restart of the daemon with every item it had; the
/// last ``SessionBook/keptStopped`` stopped sessions are kept for `show` and `list`.
struct SessionKeeper {
    private(set) var book: SessionBook
    let store: SessionStore
    /// The `[[class]]` bands new sessions class items by.
    let classes: WeightClasses?
    /// Why the last save failed, while saves fail (a full disk): logged when it begins or its
    /// reason changes, not at every item placed; each reply still says so.
    private var failingSave: String?

    /// Loads the saved sessions; a file that cannot be used is logged and left alone, and the
    /// daemon starts with none (rather than overwrite what someone may want back).
    init(store: SessionStore, classes: WeightClasses?, log: inout [(level: Logger.Level, message: String)]) {
        self.store = store
        self.classes = classes
        switch store.load() {
        case .success(let book):
            self.book = book
            if let running = book.running {
                log.append(
                    (
                        .notice,
                        "session \(running.session.name) on \(running.sensor) goes on with "
                            + "\(running.session.count) items, started \(running.session.startedAt)"
                    ))
            }
        case .failure(let error):
            book = SessionBook()
            log.append((.error, "sessions not restored: \(error)"))
        }
    }

    /// The reply to `request` at `now` (UTC text); `sensors` are the configured ones in order,
    /// and `division` says each one's division.
    mutating func reply(
        to request: SessionRequest, sensors: [String], division: (String) -> Division?, now: String,
        log: inout [(level: Logger.Level, message: String)]
    ) -> Report {
        switch request.action {
        case .start: return start(request, sensors: sensors, division: division, now: now, log: &log)
        case .stop: return stop(now: now, log: &log)
        case .show: return show(request.name)
        case .list:
            let all = book.stopped + (book.running.map { [$0] } ?? [])
            let message =
                all.isEmpty ? "no sessions yet; start one with plumscale session start NAME" : "\(all.count) sessions"
            return reply(.list, ok: true, message, all.map { Self.summary($0) })
        }
    }

    /// Records `event` in the running session when it is of its sensor: the item as the session
    /// recorded it (numbered and classed by the session, for the `ITEM` report to agree), and the
    /// news for watchers; nil for either when there is none. A removal changes no figure but what
    /// is on the pan, which is saved too, for a restart to know (docs/items.md, "Restarts").
    mutating func record(
        _ event: ItemEvent, at timestamp: String, log: inout [(level: Logger.Level, message: String)]
    ) -> (item: WeighingSession.Item?, news: Report?) {
        guard var running = book.running, running.sensor == event.sensor else { return (nil, nil) }
        let onPan = running.session.onPan
        switch running.session.record(event, at: timestamp) {
        case .success(nil):
            if running.session.onPan != onPan {
                book.running = running
                save(&log)
            }
            return (nil, nil)
        case .success(let item?):
            book.running = running
            save(&log)
            let weight = running.session.division.format(divisions: item.divisions, suffix: " g")
            let message =
                event.kind == .retracted
                ? "item \(item.number) of session \(running.session.name) retracted: the \(weight) on the pan "
                    + "was tared as a container"
                : "item \(item.number) of session \(running.session.name): " + weight
            return (item, reply("item", ok: true, message, [Self.summary(running)]))
        case .failure(let refusal):
            log.append((.warning, "session \(running.session.name): \(refusal)"))
            return (nil, nil)
        }
    }

    private mutating func start(
        _ request: SessionRequest, sensors: [String], division: (String) -> Division?, now: String,
        log: inout [(level: Logger.Level, message: String)]
    ) -> Report {
        let name = request.name ?? ""
        if let running = book.running {
            return reply(
                .start, ok: false,
                "session \(running.session.name) runs since \(running.session.startedAt) with \(running.session.count) "
                    + "items; stop it first (plumscale session stop, or ?SESSION={\"action\":\"stop\"};)")
        }
        if let kept = book.entry(named: name) {
            return reply(
                .start, ok: false,
                "a session named \(name) is kept already (stopped \(kept.session.stoppedAt ?? "?")); choose another "
                    + "name, such as \(name)-2")
        }
        guard let sensor = request.sensor ?? sensors.first, sensors.contains(sensor), let step = division(sensor) else {
            let names = sensors.map { "\"\($0)\"" }.joined(separator: ", ")
            return reply(.start, ok: false, "unknown sensor \"\(request.sensor ?? "")\"; sensors: \(names)")
        }
        let session: WeighingSession
        do {
            session = try WeighingSession(
                name: name, division: step, classes: classes, startedAt: now)
        } catch {
            return reply(.start, ok: false, "session not started: \(error)")
        }
        book.running = SessionBook.Entry(sensor: sensor, session: session)
        let saved = save(&log)
        log.append((.notice, "session \(name) started on \(sensor)"))
        return reply(
            .start, ok: true, "session \(name) started on \(sensor); each fruit placed is recorded" + saved,
            [Self.summary(book.running!)])
    }

    private mutating func stop(now: String, log: inout [(level: Logger.Level, message: String)]) -> Report {
        guard let stopped = book.stopRunning(at: now) else {
            return reply(.stop, ok: false, "no session runs; start one with plumscale session start NAME")
        }
        let saved = save(&log)
        let session = stopped.session
        log.append((.notice, "session \(session.name) stopped with \(session.count) items"))
        return reply(
            .stop, ok: true,
            "session \(session.name) stopped: \(session.count) items, "
                + session.division.format(divisions: session.totalDivisions, suffix: " g") + saved,
            [Self.summary(stopped)])
    }

    private func show(_ name: String?) -> Report {
        let found: SessionBook.Entry? =
            if let name { book.entry(named: name) } else { book.running ?? book.stopped.last }
        guard let entry = found else {
            let known = (book.stopped + (book.running.map { [$0] } ?? [])).map(\.session.name)
            let start = name.map { "no session named \($0); " } ?? "no session yet; "
            return reply(
                .show, ok: false,
                start
                    + (known.isEmpty
                        ? "start one with plumscale session start NAME" : "kept: " + known.joined(separator: ", ")))
        }
        return reply(.show, ok: true, "session \(entry.session.name)", [Self.summary(entry, items: true)])
    }

    /// Saves the book: "" when saved, else a note for the reply. A failure is logged once until
    /// its reason changes, and the first save that works after it is logged too.
    @discardableResult
    private mutating func save(_ log: inout [(level: Logger.Level, message: String)]) -> String {
        switch store.save(book) {
        case .success:
            if failingSave != nil {
                log.append((.notice, "sessions saved again"))
                failingSave = nil
            }
            return ""
        case .failure(let error):
            if failingSave != error.message {
                log.append(
                    (
                        .error,
                        "sessions not saved: \(error); the daemon keeps them and saves them at the next change "
                            + "(logged once until then)"
                    ))
            }
            failingSave = error.message
            return "; not saved to disk (\(error.message)): it will not survive a restart"
        }
    }

    private func reply(_ action: SessionRequest.Action, ok: Bool, _ message: String, _ sessions: [SessionSummary] = [])
        -> Report
    {
        reply(action.rawValue, ok: ok, message, sessions)
    }

    private func reply(_ action: String, ok: Bool, _ message: String, _ sessions: [SessionSummary]) -> Report {
        .session(SessionReport(action: action, ok: ok, message: message, sessions: sessions))
    }

    /// The protocol's view of `entry`; with its items for `show`.
    static func summary(_ entry: SessionBook.Entry, items: Bool = false) -> SessionSummary {
        let session = entry.session
        let division = session.division
        return SessionSummary(
            name: session.name, sensor: entry.sensor, started: session.startedAt, stopped: session.stoppedAt,
            division: division.grams, count: session.count, total: session.total, mean: session.mean,
            minimum: session.minimum, maximum: session.maximum, heaviestItem: session.heaviest?.number,
            standardDeviation: session.standardDeviation,
            classes: session.classCounts.map { SessionSummary.ClassCount(name: $0.name, count: $0.count) },
            unclassified: session.unclassifiedCount,
            items: items
                ? session.items.map {
                    SessionSummary.Item(
                        item: $0.number, grams: division.grams(divisions: $0.divisions), weightClass: $0.weightClass,
                        flags: $0.flags.names, at: $0.recordedAt)
                } : nil)
    }
}

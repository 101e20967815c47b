import Glibc
import Logging
import PlumCore
import PlumProtocol
import PlumStore
import PlumTestSupport
import Testing

@testable import PlumStation

@Suite("Sessions: ?SESSION starts, stops, shows and lists; items are recorded, saved, and kept over a restart")
struct SessionKeeperTests {
    static let sensors = ["left", "right"]
    static let tenth = Division.standard
    static let classes = try! WeightClasses([
        .init(name: "small", minimumGrams: 0), .init(name: "medium", minimumGrams: 35),
        .init(name: "large", minimumGrams: 60)
    ])

    /// A keeper on `directory`, and what it logged while loading.
    static func keeper(_ directory: TemporaryDirectory) -> (SessionKeeper, [String]) {
        var log: [(level: Logger.Level, message: String)] = []
        let keeper = SessionKeeper(store: SessionStore(directory: directory.path), classes: classes, log: &log)
        return (keeper, log.map(\.message))
    }

    static func ask(_ keeper: inout SessionKeeper, _ request: SessionRequest, at now: String = "2026-09-02T08:15:00Z")
        -> SessionReport
    {
        var log: [(level: Logger.Level, message: String)] = []
        let reply = keeper.reply(
            to: request, sensors: sensors, division: { sensors.contains($0) ? tenth : nil }, now: now, log: &log)
        guard case .session(let report) = reply else {
            return SessionReport(action: "?", ok: false, message: "\(reply)")
        }
        return report
    }

    /// A `placed` (or `removed`) event of `divisions` on `sensor`.
    static func event(_ sequence: Int, _ divisions: Int64, sensor: String = "left", kind: ItemEvent.Kind = .placed)
        -> ItemEvent
    {
        ItemEvent(
            sensor: sensor, sequence: sequence, item: sequence, kind: kind, divisions: divisions,
            grossAfterDivisions: divisions, division: tenth, time: UInt64(sequence) * 1_000_000_000)
    }

    @Test("a running session records its sensor's placed items and its figures; others are not recorded")
    func records() throws {
        let directory = try TemporaryDirectory()
        var (keeper, _) = Self.keeper(directory)
        let started = Self.ask(&keeper, SessionRequest(action: .start, name: "crate-12"))
        #expect(started.ok && started.message.contains("crate-12 started on left"), "\(started.message)")
        var log: [(level: Logger.Level, message: String)] = []
        let weights: [Int64] = [873, 349, 600, 512]
        var news: [SessionReport] = []
        for (index, divisions) in weights.enumerated() {
            if case .session(let report)? = keeper.record(Self.event(index + 1, divisions), at: "t\(index)", log: &log)
                .news
            {
                news.append(report)
            }
        }
        #expect(keeper.record(Self.event(9, 873, sensor: "right"), at: "t", log: &log).news == nil, "another sensor")
        #expect(keeper.record(Self.event(10, 873, kind: .removed), at: "t", log: &log).news == nil, "a removal")
        #expect(news.map { $0.sessions.first?.count } == [1, 2, 3, 4], "news of each item for the watchers")
        let shown = try #require(Self.ask(&keeper, SessionRequest(action: .show)).sessions.first)
        // Independent arithmetic on the weights in grams.
        let grams = weights.map { Double($0) / 10 }
        let mean = grams.reduce(0, +) / 4
        let deviation = (grams.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 3).squareRoot()
        #expect(shown.count == 4 && shown.total == 233.4 && shown.running, "\(shown)")
        #expect(abs((shown.mean ?? 0) - mean) < 1e-9 && abs((shown.standardDeviation ?? 0) - deviation) < 1e-9)
        #expect(shown.minimum == 34.9 && shown.maximum == 87.3 && shown.heaviestItem == 1)
        #expect(shown.classes.map(\.count) == [1, 1, 2], "small 34.9; medium 51.2; large 87.3 and 60.0")
        #expect(shown.items?.map(\.grams) == grams && shown.items?.map(\.at) == ["t0", "t1", "t2", "t3"])
    }

    /// A save that fails (a full disk, here a state directory that is gone) at every item
    /// placed wrote an error line per item: one line when it begins, one when saves work again.
    @Test("saves that fail are logged once, not at each item, and the save that works again says so")
    func failingSavesLoggedOnce() throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o755) == 0)
        var log: [(level: Logger.Level, message: String)] = []
        var keeper = SessionKeeper(store: SessionStore(directory: state), classes: Self.classes, log: &log)
        _ = Self.ask(&keeper, SessionRequest(action: .start, name: "crate-12"))
        let saved = directory.file("state-saved")
        #expect(rename(state, saved) == 0, "the state directory goes away: errno \(errno)")
        for sequence in 1...3 {
            _ = keeper.record(Self.event(sequence, 500 + Int64(sequence)), at: "t\(sequence)", log: &log)
        }
        let failures = log.filter { $0.message.hasPrefix("sessions not saved") }
        #expect(failures.count == 1 && failures.first?.level == .error, "\(log.map(\.message))")
        #expect(failures.first?.message.contains("saves them at the next change") == true, "\(failures)")
        #expect(rename(saved, state) == 0, "and comes back: errno \(errno)")
        log.removeAll()
        _ = keeper.record(Self.event(4, 600), at: "t4", log: &log)
        #expect(log.map(\.message) == ["sessions saved again"], "\(log.map(\.message))")
        let reloaded = SessionKeeper(store: SessionStore(directory: state), classes: nil, log: &log)
        #expect(reloaded.book.running?.session.count == 4, "every item kept in memory reached the file")
    }

    @Test("a restart keeps the running session with its items, and the stopped ones")
    func survivesRestart() throws {
        let directory = try TemporaryDirectory()
        var (keeper, _) = Self.keeper(directory)
        _ = Self.ask(&keeper, SessionRequest(action: .start, name: "morning"))
        var log: [(level: Logger.Level, message: String)] = []
        _ = keeper.record(Self.event(1, 700), at: "t1", log: &log)
        _ = Self.ask(&keeper, SessionRequest(action: .stop), at: "2026-09-02T09:00:00Z")
        _ = Self.ask(&keeper, SessionRequest(action: .start, name: "noon", sensor: "right"))
        _ = keeper.record(Self.event(2, 450, sensor: "right"), at: "t2", log: &log)
        #expect(log.isEmpty, "every save worked: \(log)")
        var (again, loaded) = Self.keeper(directory)
        #expect(loaded.contains { $0.contains("session noon on right goes on with 1 items") }, "\(loaded)")
        let list = Self.ask(&again, SessionRequest(action: .list)).sessions
        #expect(list.map(\.name) == ["morning", "noon"] && list.map(\.count) == [1, 1], "\(list)")
        #expect(list.map(\.stopped) == ["2026-09-02T09:00:00Z", nil])
        _ = again.record(Self.event(3, 380, sensor: "right"), at: "t3", log: &log)
        #expect(Self.ask(&again, SessionRequest(action: .show)).sessions.first?.count == 2, "it goes on recording")
    }

    @Test("at most 50 stopped sessions are kept: the oldest goes")
    func bounded() throws {
        let directory = try TemporaryDirectory()
        var (keeper, _) = Self.keeper(directory)
        for number in 1...(SessionBook.keptStopped + 2) {
            _ = Self.ask(&keeper, SessionRequest(action: .start, name: "crate-\(number)"))
            _ = Self.ask(&keeper, SessionRequest(action: .stop))
        }
        let names = Self.ask(&keeper, SessionRequest(action: .list)).sessions.map(\.name)
        #expect(names.count == 50 && names.first == "crate-3" && names.last == "crate-52", "\(names.prefix(3))")
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var what: String
        var request: SessionRequest
        var mentions: [String]
        var testDescription: String { what }
    }

    @Test(
        "a start while one runs, a stop with none, an unknown sensor or name is refused, saying what to do",
        arguments: [
            Refused(
                what: "a second start", request: SessionRequest(action: .start, name: "other"),
                mentions: ["session first runs since", "stop it first", "plumscale session stop"]),
            Refused(
                what: "an unknown sensor", request: SessionRequest(action: .start, name: "x", sensor: "middle"),
                mentions: ["unknown sensor \"middle\"", "\"left\", \"right\""]),
            Refused(
                what: "an unknown name", request: SessionRequest(action: .show, name: "nope"),
                mentions: ["no session named nope", "kept: first"])
        ])
    func refused(_ refused: Refused) throws {
        let directory = try TemporaryDirectory()
        var (keeper, _) = Self.keeper(directory)
        _ = Self.ask(&keeper, SessionRequest(action: .start, name: "first"))
        var request = refused.request
        if request.sensor == "middle" {
            _ = Self.ask(&keeper, SessionRequest(action: .stop))
            request.name = "second"
        }
        let reply = Self.ask(&keeper, request)
        #expect(!reply.ok && refused.mentions.allSatisfy { reply.message.contains($0) }, "\(reply.message)")
    }

    @Test("a stop with no session running, and a name already kept, are refused")
    func stopAndDuplicate() throws {
        let directory = try TemporaryDirectory()
        var (keeper, _) = Self.keeper(directory)
        let none = Self.ask(&keeper, SessionRequest(action: .stop))
        #expect(!none.ok && none.message.contains("no session runs; start one"), "\(none.message)")
        _ = Self.ask(&keeper, SessionRequest(action: .start, name: "a"))
        _ = Self.ask(&keeper, SessionRequest(action: .stop))
        let again = Self.ask(&keeper, SessionRequest(action: .start, name: "a"))
        #expect(!again.ok && again.message.contains("kept already") && again.message.contains("a-2"), "\(again)")
    }

    @Test("the file is written whole: the temporary file is gone, and a damaged file is not used but left alone")
    func atomicFile() throws {
        let directory = try TemporaryDirectory()
        var (keeper, _) = Self.keeper(directory)
        _ = Self.ask(&keeper, SessionRequest(action: .start, name: "a"))
        #expect(readFile(directory.file("sessions.json")).contains("\"plumscale-sessions\""))
        #expect(readFile(directory.file("sessions.json.tmp")).isEmpty, "no temporary file left")
        let damaged = readFile(directory.file("sessions.json")).replacing("\"a\"", with: "\"b\"")
        writeFile(directory.file("sessions.json"), damaged)
        let (fresh, log) = Self.keeper(directory)
        #expect(fresh.book.running == nil && log.contains { $0.contains("checksum") }, "\(log)")
        #expect(readFile(directory.file("sessions.json")) == damaged, "left for someone to look at")
    }
}

import Foundation
import PropertyBased
import Testing

@testable import PlumCore

@Suite("Weighing sessions and weight classes")
struct WeighingSessionTests {
    /// The plum grading of docs/items.md.
    static let plumClasses = try! WeightClasses([
        .init(name: "small", minimumGrams: 0), .init(name: "medium", minimumGrams: 35),
        .init(name: "large", minimumGrams: 60)
    ])

    static func placed(_ item: Int, divisions: Int64, division: Division = .standard) -> ItemEvent {
        ItemEvent(
            sensor: "left", sequence: item, item: item, kind: .placed, divisions: divisions,
            grossAfterDivisions: divisions, division: division, time: UInt64(item) * 1_000_000_000)
    }

    @Test("count, total, mean, min, max and standard deviation agree with a two-pass calculation")
    func figuresAgree() async {
        await propertyCheck(input: Gen.int(in: 1...5_000_000).array(of: 1...200)) { weights in
            var session = try WeighingSession(name: "crate", division: .standard, startedAt: "2026-09-02T08:00:00Z")
            for (index, divisions) in weights.enumerated() {
                _ = session.record(Self.placed(index + 1, divisions: Int64(divisions)), at: "t\(index)")
            }
            let grams = weights.map { Double($0) / 10 }
            let mean = grams.reduce(0, +) / Double(grams.count)
            #expect(session.count == weights.count)
            #expect(session.totalDivisions == Int64(weights.reduce(0, +)))
            #expect(abs(session.mean! - mean) <= 1e-9 * max(1, mean))
            #expect(session.minimum == grams.min())
            #expect(session.maximum == grams.max())
            #expect(session.heaviest?.number == (weights.firstIndex(of: weights.max()!)! + 1))
            if grams.count > 1 {
                let variance = grams.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(grams.count - 1)
                #expect(abs(session.standardDeviation! - variance.squareRoot()) <= 1e-6 * max(1, variance.squareRoot()))
            } else {
                #expect(session.standardDeviation == nil)
            }
        }
    }

    @Test("the standard deviation of heavy items with a small spread is exact (Welford, no cancellation)")
    func stableDeviation() throws {
        // 10 000 items of 1 000 000.0 g ± 0.1 g alternating: σ is 0.1 g (n − 1: a hair above).
        // A sum of squares would hold 1e16 g² and lose the 0.01 g² differences entirely.
        let division = try Division(grams: 0.1)
        var session = try WeighingSession(name: "heavy", division: division, startedAt: "s")
        for index in 0..<10_000 {
            let divisions: Int64 = 10_000_000 + (index % 2 == 0 ? 1 : -1)
            _ = session.record(Self.placed(index + 1, divisions: divisions), at: "t")
        }
        let expected = (0.01 * 10_000 / 9_999).squareRoot()
        #expect(abs(session.standardDeviation! - expected) < 1e-6)
        #expect(abs(session.mean! - 1_000_000) < 1e-6)
    }

    @Test("plums graded by bands: the highest band whose minimum the weight reaches")
    func grading() throws {
        var session = try WeighingSession(
            name: "crate 12", division: .standard, classes: Self.plumClasses, startedAt: "s")
        for (index, divisions) in [349, 350, 599, 600, 1_240, 12].enumerated() {
            _ = session.record(Self.placed(index + 1, divisions: Int64(divisions)), at: "t")
        }
        #expect(session.items.map(\.weightClass) == ["small", "medium", "medium", "large", "large", "small"])
        #expect(session.classCounts.map(\.name) == ["small", "medium", "large"])
        #expect(session.classCounts.map(\.count) == [2, 2, 2])
        // Within 1 d (0.1 g) of 35 g or 60 g one division decides the class: borderline.
        #expect(session.items.map { $0.flags.contains(.borderline) } == [true, true, true, true, false, false])
        _ = session.record(Self.placed(7, divisions: 348), at: "t")
        #expect(session.items.last?.flags.contains(.borderline) == false, "34.8 g is 2 d from 35 g")
        let above = try WeightClasses([.init(name: "export", minimumGrams: 45)])
        #expect(above.name(forGrams: 44.9) == nil)
        #expect(above.name(forGrams: 45) == "export")
    }

    @Test("bands out of order, nameless or named twice are refused, naming the band")
    func badBands() {
        let cases: [([WeightClasses.Band], String)] = [
            ([.init(name: "large", minimumGrams: 60), .init(name: "small", minimumGrams: 0)], "\"small\""),
            ([.init(name: "a", minimumGrams: 0), .init(name: "a", minimumGrams: 10)], "twice"),
            ([.init(name: " ", minimumGrams: 0)], "no name"),
            ([.init(name: "odd", minimumGrams: -.infinity)], "not a weight")
        ]
        for (bands, words) in cases {
            do {
                _ = try WeightClasses(bands)
                Issue.record("accepted \(bands)")
            } catch {
                #expect(error.description.contains(words), "\(error)")
            }
        }
    }

    @Test("removals add no item; a stopped session refuses items; another division is refused")
    func recordRules() throws {
        var session = try WeighingSession(name: "crate", division: .standard, startedAt: "s")
        var removal = Self.placed(1, divisions: 500)
        removal.kind = .removed
        #expect(try session.record(removal, at: "t").get() == nil)
        let coarse = try Division(grams: 1)
        #expect(
            session.record(Self.placed(1, divisions: 50, division: coarse), at: "t").refusalCode
                == .invalidConfiguration)
        #expect(try session.record(Self.placed(1, divisions: 500), at: "t").get()?.divisions == 500)
        session.stop(at: "end")
        session.stop(at: "later")
        #expect(session.stoppedAt == "end")
        #expect(session.record(Self.placed(2, divisions: 500), at: "t").refusalCode == .noProcedure)
        #expect(session.count == 1)
    }

    @Test("a session survives encoding: the same items, and figures recomputed equal")
    func roundTrip() throws {
        var session = try WeighingSession(
            name: "crate 12", division: .standard, classes: Self.plumClasses, startedAt: "2026-09-02T08:00:00Z")
        for (index, divisions) in [412, 655, 388, 701].enumerated() {
            var event = Self.placed(index + 1, divisions: Int64(divisions))
            if index == 2 { event.flags = .merged }
            _ = session.record(event, at: "2026-09-02T08:0\(index):00Z")
        }
        session.stop(at: "2026-09-02T09:00:00Z")
        let data = try JSONEncoder().encode(session)
        let back = try JSONDecoder().decode(WeighingSession.self, from: data)
        #expect(back == session)
        #expect(back.standardDeviation == session.standardDeviation)
        #expect(back.items[2].flags == .merged)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"division\":0.1"))
        #expect(!text.contains("mean"))
    }

    @Test("a stored session with a division no display may show is refused")
    func refusesBadDivision() {
        let json = #"{"name":"x","division":0.3,"startedAt":"s","items":[]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WeighingSession.self, from: Data(json.utf8)) }
    }

    @Test("what is on the pan and the last number survive encoding; a file without them takes them from its items")
    func panAndNumbersSurvive() throws {
        var session = try WeighingSession(name: "crate", division: .standard, startedAt: "s")
        for item in 1...3 { _ = session.record(Self.placed(item, divisions: 400 + Int64(item)), at: "t") }
        var removal = Self.placed(1, divisions: 401)
        removal.kind = .removed
        _ = session.record(removal, at: "t")
        var retraction = Self.placed(3, divisions: 403)
        retraction.kind = .retracted
        _ = session.record(retraction, at: "t")
        #expect(session.onPan == [2] && session.lastNumber == 3, "a retracted item keeps its number used")
        let decoded = try JSONDecoder().decode(WeighingSession.self, from: try JSONEncoder().encode(session))
        #expect(decoded.onPan == [2] && decoded.lastNumber == 3)
        #expect(decoded.weighedOnPan.map(\.divisions) == [402])
        let old =
            #"{"name":"x","division":0.1,"startedAt":"s","items":"#
            + #"[{"number":4,"divisions":500,"flags":0,"recordedAt":"t"}]}"#
        let older = try JSONDecoder().decode(WeighingSession.self, from: Data(old.utf8))
        #expect(older.lastNumber == 4 && older.onPan.isEmpty)
    }
}

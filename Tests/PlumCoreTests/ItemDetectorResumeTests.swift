import PlumCore
import Testing

/// After a restart or an outage the detector did not see, its first level is matched against
/// what was recorded on the pan (docs/items.md, "Restarts").
@Suite("Resume: the first level after a restart counts the fruit on the pan once and numbers on")
struct ItemDetectorResumeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// Recorded on the pan before: item 7 of 87.3 g, or nothing.
        let onPan: [Int64]
        /// The net on the pan when weighing resumes, in grams, then the loads that follow.
        let loads: [Double]
        let kinds: [ItemEvent.Kind]
        let items: [Int?]
        let divisions: [Int64]
    }

    static let cases: [Case] = [
        Case(
            testDescription: "the plum still on the pan is not counted again; lifted, it ends item 7; the next is 8",
            onPan: [873], loads: [87.3, 0, 50], kinds: [.removed, .placed], items: [7, 8], divisions: [873, 500]),
        Case(
            testDescription: "a plum lifted while unseen is removed at once, and no item is made of the empty pan",
            onPan: [873], loads: [0], kinds: [.removed], items: [7], divisions: [873]),
        Case(
            testDescription: "a plum placed while unseen is an item of its own weight, numbered on",
            onPan: [], loads: [60, 0], kinds: [.placed, .removed], items: [8, 8], divisions: [600, 600]),
        Case(
            testDescription: "a plum swapped while unseen: the old removed, the new placed by its own weight",
            onPan: [873], loads: [50.1, 0], kinds: [.removed, .placed, .removed], items: [7, 8, 8],
            divisions: [873, 501, 501]),
        Case(
            testDescription: "a plum within N of the recorded one is taken for it (the pan cannot tell them apart)",
            onPan: [873], loads: [87.5], kinds: [], items: [], divisions: [])
    ]

    @Test("resuming with what was on the pan", arguments: cases)
    func resumes(_ plan: Case) throws {
        var detector = try ItemDetector(sensor: "pan", division: .standard)
        detector.resume(onPan: plan.onPan.map { (7, $0) }, lastItem: 7)
        // A power-up zero rebases the detector before its first level: the resume survives it.
        detector.rebase()
        var time: UInt64 = 0
        var events: [ItemEvent] = []
        for grams in plan.loads {
            for _ in 0..<40 {
                events += detector.observe(gross: grams, stable: true, time: time)
                time += 12_500_000
            }
            events += detector.observe(gross: grams, stable: false, time: time)
        }
        #expect(events.map(\.kind) == plan.kinds, "\(events)")
        #expect(events.map(\.item) == plan.items)
        #expect(events.map(\.divisions) == plan.divisions)
    }

    @Test("a tare before the first level makes what is on the pan a container: nothing is matched or counted")
    func tareEndsTheResume() throws {
        var detector = try ItemDetector(sensor: "pan", division: .standard)
        detector.resume(onPan: [(7, 873)], lastItem: 7)
        #expect(detector.tare(time: 0, grossDivisions: 873).isEmpty)
        var events: [ItemEvent] = []
        for step in 0..<40 { events += detector.observe(gross: 0, stable: true, time: UInt64(step) * 12_500_000) }
        #expect(events.isEmpty, "\(events)")
        #expect(detector.weighedOnPan.isEmpty)
    }

    @Test("renumber: the first item of a new session is 1")
    func renumberStartsAtOne() throws {
        var detector = try ItemDetector(sensor: "pan", division: .standard)
        detector.resume(onPan: [], lastItem: 12)
        detector.renumber()
        var events: [ItemEvent] = []
        var time: UInt64 = 0
        for grams in [0.0, 40] {
            for _ in 0..<40 {
                events += detector.observe(gross: grams, stable: true, time: time)
                time += 12_500_000
            }
        }
        #expect(events.map(\.item) == [1])
    }
}

import PropertyBased
import Testing

@testable import PlumCore

@Suite("Piece counting and check-weighing")
struct CountingAndCheckingTests {
    @Test("n pieces of the reference weight, ± 0.3 of a piece, count as n; further off is ambiguous")
    func counting() async {
        await propertyCheck(
            input: Gen.double(in: 1...500), Gen.int(in: 1...50), Gen.int(in: 0...2_000), Gen.double(in: -0.5...0.5)
        ) { unit, pieces, count, offset in
            let counter = try PieceCounter(net: unit * Double(pieces), pieces: pieces, division: .standard)
            let net = (Double(count) + offset) * unit
            let answer = counter.count(net: net)
            if abs(offset) < 0.299 {
                #expect(answer == .pieces(count), "\(net) g at \(unit) g each")
            } else if abs(offset) > 0.301 {
                guard case .ambiguous(let ratio) = answer else {
                    Issue.record("\(net) g at \(unit) g each counted as \(answer)")
                    return
                }
                #expect(abs(ratio - (Double(count) + offset)) < 1e-6)
            }
        }
    }

    @Test("a unit under 10 d warns; 10 d and more does not")
    func smallUnitWarns() throws {
        let small = try PieceCounter(net: 9.9, pieces: 10, division: .standard)  // 0.99 g = 9.9 d
        #expect(small.warning?.contains("9.9 d, under 10 d") == true)
        #expect(try PieceCounter(net: 10, pieces: 10, division: .standard).warning == nil)
    }

    @Test("a reference from no pieces or an empty pan is refused, saying what to do")
    func badReference() {
        #expect(throws: Refusal.self) { try PieceCounter(net: 50, pieces: 0, division: .standard) }
        do {
            _ = try PieceCounter(net: -0.2, pieces: 10, division: .standard)
            Issue.record("an empty pan was accepted as a reference")
        } catch {
            #expect(error.description.contains("place the 10 pieces"))
        }
    }

    @Test("below target − minus is under, above target + plus over, the limits themselves ok")
    func checkWeighing() async throws {
        let checker = try CheckWeigher(target: 100, minus: 0.3, plus: 0.5)
        let verdicts = [996, 997, 1_000, 1_005, 1_006].map { checker.judge(divisions: $0, division: .standard) }
        #expect(verdicts == [.under, .ok, .ok, .ok, .over])
        await propertyCheck(
            input: Gen.int(in: 1...100_000), Gen.int(in: 0...500), Gen.int(in: 0...500), Gen.int(in: -1_000...1_000)
        ) { target, minus, plus, offset in
            // Everything in whole divisions, so the expected verdict is plain integer arithmetic.
            let checker = try CheckWeigher(
                target: Double(target) / 10, minus: Double(minus) / 10, plus: Double(plus) / 10)
            let shown = Int64(target + offset)
            let expected: CheckWeigher.Verdict = offset < -minus ? .under : offset > plus ? .over : .ok
            #expect(checker.judge(divisions: shown, division: .standard) == expected)
        }
    }

    @Test("a reading in motion gets no verdict; a stable one does")
    func onlyStable() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 3)
        let checker = try CheckWeigher(target: 50, minus: 1, plus: 1)
        Fixtures.feed(&engine, grams: 0, count: 80, start: 0, noise: &noise)
        let readings = Fixtures.feed(&engine, grams: 53, count: 80, start: 80, noise: &noise)
        #expect(checker.judge(readings[0]) == nil)
        #expect(checker.judge(try #require(readings.last)) == .over)
        #expect(throws: Refusal.self) { try CheckWeigher(target: 50, minus: -1, plus: 1) }
    }

    @Test("check-weighing and counting judge one value: the stable net rounded once to d, not the held display")
    func oneValueJudged() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 5)
        Fixtures.feed(&engine, grams: 0, count: 80, start: 0, noise: &noise)
        let landing = Fixtures.feed(&engine, grams: 99.46, count: 160, start: 80, noise: &noise)
        let readings = Fixtures.feed(&engine, grams: 99.43, count: 320, start: 240, noise: &noise)
        let last = try #require(readings.last)
        let checker = try CheckWeigher(target: 100, minus: 0.5, plus: 1)
        let counter = try PieceCounter(net: 99.4, pieces: 10, division: .standard)
        // Moving: neither a verdict nor a count.
        #expect(landing[0].judgedDivisions == nil)
        #expect(checker.judge(landing[0]) == nil && counter.count(landing[0]) == nil)
        // 99.43 g to the nearest 0.1 g is 99.4 g, 994 d. The display, come down from 99.46 g
        // (99.5 g), holds 99.5 g: 99.43 g is within ½ + ¼ d of it.
        #expect(last.isStable)
        #expect(last.displayedDivisions == 995, "the display held 99.5 g by its hysteresis: \(last.display)")
        #expect(last.judgedDivisions == 994)
        // 99.4 g is below 100 − 0.5 g: under, though the display shows the limit itself.
        #expect(checker.judge(last) == .under)
        #expect(counter.count(last) == .pieces(10))
    }
}

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

    /// Min for d = 0.1 g: 20 d (R 76-1 table 3, class III) is 2.0 g.
    static let minimum = 20 * 0.1

    @Test("a target whose lower limit lies below Min is refused, naming the limit, Min and what to do")
    func targetBelowMinimum() throws {
        do {
            _ = try CheckWeigher(target: 1.5, minus: 1.5, plus: 1, minimumWeight: Self.minimum)
            Issue.record("a lower limit of 0 g was accepted")
        } catch {
            #expect(error.reason.contains("lower limit 0 g") && error.reason.contains("minimum weight 2 g"), "\(error)")
            #expect(error.hint.contains("set target − minus to 2 g or more"), "\(error.hint)")
        }
        #expect(throws: Refusal.self) { try CheckWeigher(target: 0.1, minus: 0, plus: 1, minimumWeight: Self.minimum) }
        _ = try CheckWeigher(target: 2.5, minus: 0.5, plus: 1, minimumWeight: Self.minimum)
    }

    @Test("the empty pan and a load below Min get no verdict but a reason; an overload is over")
    func emptyBelowMinimumAndOverload() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 8)
        let checker = try CheckWeigher(target: 2.5, minus: 0.5, plus: 1, minimumWeight: Self.minimum)
        let empty = try #require(Fixtures.feed(&engine, grams: 0, count: 160, start: 0, noise: &noise).last)
        #expect(empty.isStable)
        #expect(checker.assess(empty) == .init(verdict: nil, borderline: false, withheld: "the pan is empty"))
        let light = try #require(Fixtures.feed(&engine, grams: 1.2, count: 160, start: 160, noise: &noise).last)
        #expect(checker.assess(light)?.verdict == nil)
        #expect(checker.assess(light)?.withheld == "below the minimum weight 2.0 g")
        // Max is 385 g and the overload limit Max + 9 d: 400 g is past both.
        let over = try #require(Fixtures.feed(&engine, grams: 400, count: 40, start: 320, noise: &noise).last)
        #expect(over.isOverload && checker.judge(over) == .over)
    }

    @Test(
        "a reading within 1 d of a limit is borderline; 2 d away it is not",
        arguments: [
            (979, true), (980, true), (981, true), (982, false), (1_000, false), (1_049, true),
            (1_051, true), (1_052, false)
        ])
    func borderline(divisions: Int64, borderline: Bool) throws {
        // Limits 98.0 g and 105.0 g: 980 d and 1 050 d.
        let checker = try CheckWeigher(target: 100, minus: 2, plus: 5, minimumWeight: Self.minimum)
        #expect(checker.isBorderline(divisions: divisions, division: .standard) == borderline)
    }

    @Test("a count reference below Min or of pieces under 1 d is refused, saying why and what to do")
    func referenceRefusals() {
        do {
            _ = try PieceCounter(net: 1.5, pieces: 3, division: .standard, minimumWeight: Self.minimum)
            Issue.record("a 1.5 g reference was taken below Min")
        } catch {
            #expect(error.reason.contains("below the minimum weight 2.0 g") && error.hint.contains("more pieces"))
        }
        do {
            _ = try PieceCounter(net: 2.4, pieces: 40, division: .standard, minimumWeight: Self.minimum)
            Issue.record("pieces of 0.06 g, under 1 d, were taken")
        } catch {
            #expect(error.reason.contains("under the division 0.1 g"), "\(error)")
        }
    }

    @Test("180 pieces of 2.000 g counted from a reference of 5, in a bowl tared at 20.049 g, are 180")
    func manyPiecesFromSmallReference() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 12)
        var index = 0
        func hold(_ grams: Double) -> Reading {
            defer { index += 160 }
            return Fixtures.feed(&engine, grams: grams, count: 160, start: index, noise: &noise, sigma: 0.02).last!
        }
        _ = hold(0)
        _ = hold(20.049)
        _ = try engine.tareNow().get()
        let five = hold(20.049 + 5 * 2.0)
        let net = try #require(five.net)
        let counter = try PieceCounter(net: net, pieces: 5, division: .standard, minimumWeight: Self.minimum)
        let many = hold(20.049 + 180 * 2.0)
        #expect(many.isStable)
        #expect(counter.count(many) == .pieces(180), "unit \(counter.unitGrams) g, net \(String(describing: many.net))")
        #expect(counter.count(hold(20.049)) == .withheld(reason: "the pan is empty"))
    }

    @Test("reference optimisation: a count of twice the reference, unambiguous, becomes it; a doubtful one not")
    func referenceOptimisation() throws {
        var engine = try Fixtures.engine()
        var noise = SeededNoise(seed: 21)
        var index = 0
        func hold(_ grams: Double) -> Reading {
            defer { index += 160 }
            return Fixtures.feed(&engine, grams: grams, count: 160, start: index, noise: &noise, sigma: 0.02).last!
        }
        _ = hold(0)
        // Pieces of 2.013 g; the reference of 5 read to the division: 10.1 g, 2.02 g each.
        var counter = try PieceCounter(net: 10.1, pieces: 5, division: .standard, minimumWeight: Self.minimum)
        counter.optimizes = true
        // 9 pieces are under twice the reference: no change.
        let nine = counter.optimize(hold(9 * 2.013))
        #expect(!nine)
        // 12 pieces, 24.156 g: 24.2 g is 11.98 pieces of 2.02 g, within 0.1 of 12: the new reference.
        let twelve = counter.optimize(hold(12 * 2.013))
        #expect(twelve && counter.referencePieces == 12 && abs(counter.unitGrams - 24.2 / 12) < 1e-9)
        // From 5 pieces, 180 pieces (362.34 g, 362.3 g) were 179.4 of 2.02 g: ambiguous. Optimised
        // on the way, at 30 and 90 pieces, one piece's weight is known well enough to count them.
        let unoptimised = try PieceCounter(net: 10.1, pieces: 5, division: .standard, minimumWeight: Self.minimum)
        guard case .ambiguous = unoptimised.count(net: 362.3) else {
            Issue.record("362.3 g of 2.02 g pieces (179.36) was counted")
            return
        }
        let thirty = counter.optimize(hold(30 * 2.013))
        let ninety = counter.optimize(hold(90 * 2.013))
        #expect(thirty && ninety, "\(counter.referencePieces) pieces of \(counter.unitGrams) g")
        #expect(counter.count(hold(180 * 2.013)) == .pieces(180))
        var off = try PieceCounter(net: 10.1, pieces: 5, division: .standard, minimumWeight: Self.minimum)
        let notAsked = off.optimize(hold(12 * 2.013))
        #expect(!notAsked, "not asked for")
        // 12.2 pieces' weight counts as 12, but 0.2 from a whole number is too doubtful for a reference.
        off.optimizes = true
        let doubtful = off.optimize(hold(12.2 * 2.02))
        #expect(!doubtful)
    }
}

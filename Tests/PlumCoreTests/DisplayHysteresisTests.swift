import Testing

@testable import PlumCore

/// The display keeps its division until the filtered load is past the rounding boundary by the
/// hysteresis (0.25 d by default), so a load resting near a boundary does not flicker.
@Suite("Display hysteresis")
struct DisplayHysteresisTests {
    /// The division shown after 1 s of each load in turn, noise-free, at 80 SPS.
    static func shown(_ loads: [Double], hysteresis: Double) throws -> [Int64] {
        var configuration = ScaleConfiguration()
        configuration.displayHysteresis = hysteresis
        configuration.zeroTracking = false
        configuration.initialZeroSetting = false
        var engine = try Fixtures.engine(configuration: configuration)
        var noise = SeededNoise(seed: 1)
        var shown: [Int64] = []
        for (index, grams) in loads.enumerated() {
            let readings = Fixtures.feed(&engine, grams: grams, count: 80, start: index * 80, noise: &noise)
            guard case .grams(let divisions, _) = readings.last?.display else {
                Issue.record("no weight shown for \(grams) g")
                return []
            }
            shown.append(divisions)
        }
        return shown
    }

    @Test("a division changes only 0.25 d past the boundary, up and down")
    func movesPastTheBoundary() throws {
        // 100.07 g is 0.2 d past the 100.05 boundary: 100.0 stays; 100.08 is 0.3 d past it.
        let loads = [100.0, 100.07, 100.08, 100.03, 100.02]
        #expect(try Self.shown(loads, hysteresis: 0.25) == [1000, 1000, 1001, 1001, 1000])
        // Without hysteresis the same loads round to the nearest division.
        #expect(try Self.shown(loads, hysteresis: 0) == [1000, 1001, 1001, 1000, 1000])
    }

    @Test("a jump of two divisions or more moves at once")
    func bigJumpMoves() throws {
        #expect(try Self.shown([100.0, 100.2, 150.0], hysteresis: 0.25) == [1000, 1002, 1500])
    }
}

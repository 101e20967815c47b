import PlumHardware
import PlumSimulation
import Testing

/// A load that follows a function of time, in grams.
struct LoadFunction: LoadProfile {
    let origin: MonotonicInstant
    let grams: (Double) -> Double
    func grams(at time: MonotonicInstant) -> Double { grams(Double(time.nanoseconds(since: origin)) / 1e9) }
}

@Suite("FSR 402 model")
struct FSRModelTests {
    @Test("resistance falls as force rises, for every part", arguments: [1, 2, 3, 402] as [UInt64])
    func monotoneInForce(seed: UInt64) {
        let fsr = FSRModel(load: ConstantLoad(grams: 0), seed: seed)
        let forces = stride(from: 0.2, through: 20, by: 0.1).map { $0 }
        let ohms = forces.map { fsr.loadingOhms(newtons: $0) }
        for (lighter, heavier) in zip(ohms, ohms.dropFirst()) {
            #expect(heavier < lighter)
        }
    }

    @Test("below the break force (about 20 g) the FSR is open; just above it conducts in the tens of kilohms")
    func openCircuitRegion() {
        let fsr = FSRModel(load: ConstantLoad(grams: 0), parameters: .ideal402)
        for grams in [0.0, 5, 10, 19] {
            #expect(fsr.loadingOhms(newtons: grams * FSRModel.newtonsPerGram) == .infinity)
        }
        let justAbove = fsr.loadingOhms(newtons: 0.21)
        #expect(justAbove > 10_000 && justAbove < 30_000)
        let clock = VirtualClock()
        #expect(FSRModel(load: ConstantLoad(grams: 10)).ohms(at: clock.now()) == .infinity)
    }

    @Test("the nominal FSR 402 follows R = 1 kΩ · (F / 10 N)^−0.8")
    func powerLaw() {
        let fsr = FSRModel(load: ConstantLoad(grams: 0), parameters: .ideal402)
        #expect(abs(fsr.loadingOhms(newtons: 10) - 1_000) < 1e-9)
        // Slope on log-log axes is −n.
        let slope = (log10(fsr.loadingOhms(newtons: 4)) - log10(fsr.loadingOhms(newtons: 1))) / log10(4)
        #expect(abs(slope + 0.8) < 1e-9)
    }

    @Test("parts differ within the spread, and one seed is always the same part")
    func partToPart() {
        let factors = (0..<200).map { FSRModel(load: ConstantLoad(grams: 0), seed: UInt64($0)).partFactor }
        #expect(factors.allSatisfy { $0 >= 0.85 && $0 <= 1.15 })
        #expect(Set(factors).count == factors.count)
        #expect((factors.max()! - factors.min()!) > 0.2, "the spread is used, not just its middle")
        #expect(
            FSRModel(load: ConstantLoad(grams: 0), seed: 5).partFactor
                == FSRModel(load: ConstantLoad(grams: 0), seed: 5).partFactor)
    }

    @Test("unloading reads about 10 % lower resistance than loading at the same force (Interlink: (R_F+ − R_F−)/R_F+)")
    func hysteresis() {
        let clock = VirtualClock()
        let origin = clock.now()
        // 0 → 300 g over 3 s, then back to 0 over 3 s.
        let triangle = LoadFunction(origin: origin) { $0 < 3 ? 100 * $0 : max(0, 600 - 100 * $0) }
        let fsr = FSRModel(load: triangle, parameters: FSRModel.Parameters(partToPartSpread: 0, creepPerDecade: 0))
        var rising = 0.0
        var falling = 0.0
        for step in 0...600 {
            let time = origin.advanced(byNanoseconds: UInt64(step) * 10_000_000)
            let ohms = fsr.ohms(at: time)
            if step == 150 { rising = ohms }  // 150 g, loading
            if step == 450 { falling = ohms }  // 150 g, unloading
        }
        #expect(abs((rising - falling) / rising - 0.10) < 1e-9)
    }

    @Test("under a standing load resistance creeps down about 5 % per decade of time")
    func creep() {
        let clock = VirtualClock()
        let fsr = FSRModel(
            load: ConstantLoad(grams: 200), parameters: FSRModel.Parameters(partToPartSpread: 0, hysteresis: 0))
        let start = clock.now()
        let first = fsr.ohms(at: start)
        let later = [9.0, 99, 999].map { fsr.ohms(at: start.advanced(byNanoseconds: UInt64($0 * 1e9))) }
        #expect(later[0] < first)
        #expect(later[1] < later[0])
        #expect(later[2] < later[1])
        // 1 + t/1 s: 10, 100 and 1000 are one, two and three decades.
        for (decades, ohms) in zip([1.0, 2, 3], later) {
            #expect(abs(ohms / first - (1 - 0.05 * decades)) < 1e-9)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

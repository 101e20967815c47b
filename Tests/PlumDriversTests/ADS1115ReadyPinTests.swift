import PlumDrivers
import PlumHardware
import PlumSimulation
import Testing

@Suite("ADS1115 ALERT/RDY as conversion-ready pin")
struct ADS1115ReadyPinTests {
    @Test("the driver sets Hi_thresh MSB 1, Lo_thresh MSB 0 and COMP_QUE ≠ 11b before waiting on the pin")
    func readyPatternWritten() throws {
        let bench = ADS1115Bench(inputs: [1, 0, 0, 0])
        var chip = bench.withReadyPin()
        let conversion = try chip.read(ADS1115Config(mux: .ain0))
        #expect(bench.model.registerValue(.hiThresh) & 0x8000 != 0)
        #expect(bench.model.registerValue(.loThresh) & 0x8000 == 0)
        #expect(bench.model.registerValue(.config) & 0x3 != 0x3)
        #expect(conversion.config.comparatorQueue != .disabled)
    }

    @Test("a single shot waits on the falling edge at the end of the conversion, without polling OS")
    func singleShotEdge() throws {
        let bench = ADS1115Bench(inputs: [0, 0, 0.8, 0])
        var chip = bench.withReadyPin()
        let config = ADS1115Config(mux: .ain2, dataRate: .sps250)
        _ = try chip.read(config)  // first use: power-down check and threshold setup
        let transfersBefore = bench.model.transfers
        let start = bench.clock.now()
        let conversion = try chip.read(config)
        let edge = try #require(conversion.edgeTime)
        // Config write (about 0.4 ms at 100 kHz) then one 250 SPS conversion.
        #expect(edge.nanoseconds(since: start) >= 4_000_000)
        #expect(conversion.code == idealCode(0.8, .volts2_048))
        #expect(bench.model.transfers - transfersBefore == 2, "one Config write, one Conversion read")
    }

    @Test("active-high polarity waits on the rising edge instead")
    func activeHighPolarity() throws {
        let bench = ADS1115Bench(inputs: [0.3, 0, 0, 0])
        var chip = bench.withReadyPin()
        let conversion = try chip.read(ADS1115Config(mux: .ain0, comparatorPolarity: .activeHigh))
        #expect(conversion.edgeTime != nil)
        #expect(conversion.code == idealCode(0.3, .volts2_048))
    }

    @Test("no edge in time is notReady naming the ALERT/RDY wiring")
    func missingEdge() throws {
        let bench = ADS1115Bench()
        // A GPIO line requested for rising edges only never reports the active-low assertion.
        bench.model.alertEdgeDetection = .rising
        var chip = bench.withReadyPin()
        #expect {
            _ = try chip.read(ADS1115Config(mux: .ain0))
        } throws: { error in
            guard case .notReady(_, _, let detail, let hint) = error as? ADS1115Error else { return false }
            return detail.contains("falling edge on ALERT/RDY") && hint.contains("pull-up")
        }
    }

    @Test(
        "after the sampler falls behind and the kernel's edge buffer overflows, the newest edge and conversion are used"
    )
    func fallingBehind() throws {
        let bench = ADS1115Bench()
        let origin = bench.clock.now()
        bench.model.connect(VoltageFunction { Double($0.nanoseconds(since: origin)) / 1e9 }, to: .ain0)
        var chip = bench.withReadyPin()
        let config = ADS1115Config(mux: .ain0, mode: .continuous, dataRate: .sps128)
        _ = try chip.read(config)
        // 100 ms is 12 conversions: 24 edges, more than the 16 the buffer keeps.
        bench.clock.advance(byNanoseconds: 100_000_000)
        let late = try chip.read(config)
        let edge = try #require(late.edgeTime)
        #expect(
            late.time.nanoseconds(since: edge) < ADS1115Config.DataRate.sps128.nominalConversionNanoseconds,
            "the edge of the conversion that was read, not an older one")
        // The code is the ramp (1 V/s) at the middle of that conversion.
        let middle = Double(edge.nanoseconds(since: origin)) / 1e9 - 0.5 / 128
        #expect(abs(Double(late.code) * 62.5e-6 - middle) < 2 * 62.5e-6)
    }
}

import PlumDrivers
import Testing

/// A divider, an FSR resistance, and the output the divider formula gives by hand.
struct DividerCase: Sendable, CustomTestStringConvertible {
    var placement: FSRDivider.Placement
    var supply: Double
    var fixed: Double
    var fsr: Double
    var volts: Double
    var testDescription: String { "\(placement.rawValue) \(supply) V, R_M \(fixed) Ω, FSR \(fsr) Ω" }

    static let all = [
        // Equal resistors halve the supply either way round.
        DividerCase(placement: .fsrToSupply, supply: 3.3, fixed: 10_000, fsr: 10_000, volts: 1.65),
        DividerCase(placement: .fsrToGround, supply: 3.3, fixed: 10_000, fsr: 10_000, volts: 1.65),
        // 3.3 · 10k / (10k + 1k) = 3.0 V: a hard press on the Interlink divider.
        DividerCase(placement: .fsrToSupply, supply: 3.3, fixed: 10_000, fsr: 1_000, volts: 3.0),
        // 5 · 3k / (3k + 27k) = 0.5 V: a light touch with a 3 kΩ resistor on 5 V.
        DividerCase(placement: .fsrToSupply, supply: 5, fixed: 3_000, fsr: 27_000, volts: 0.5),
        // 3.3 · 90k / (10k + 90k) = 2.97 V: FSR to ground reads high when lightly pressed.
        DividerCase(placement: .fsrToGround, supply: 3.3, fixed: 10_000, fsr: 90_000, volts: 2.97)
    ]
}

@Suite("FSR voltage divider")
struct FSRDividerTests {
    @Test(
        "known resistors give the divider voltage, and that voltage gives back the resistance and conductance",
        arguments: DividerCase.all)
    func roundTrip(_ divider: DividerCase) throws {
        let circuit = try FSRDivider(
            supplyVolts: divider.supply, fixedOhms: divider.fixed, placement: divider.placement)
        let volts = circuit.outputVolts(fsrOhms: divider.fsr)
        #expect(abs(volts - divider.volts) < 1e-12)
        let reading = circuit.reading(volts: volts)
        #expect(reading.region == .measurable)
        #expect(abs(reading.ohms - divider.fsr) / divider.fsr < 1e-9)
        #expect(abs(reading.microsiemens - 1e6 / divider.fsr) / (1e6 / divider.fsr) < 1e-9)
    }

    @Test(
        "an untouched FSR (0 V on the Interlink divider, and noise below zero) is open: infinite resistance, zero conductance",
        arguments: [0.0, -0.000_125, -0.01])
    func openFSR(volts: Double) {
        let reading = FSRDivider.standard.reading(volts: volts)
        #expect(reading.region == .open)
        #expect(reading.ohms == .infinity)
        #expect(reading.microsiemens == 0)
        #expect(FSRDivider.standard.outputVolts(fsrOhms: .infinity) == 0)
    }

    @Test("an output at or above the supply is a short, not a negative resistance", arguments: [3.3, 3.4])
    func shorted(volts: Double) {
        let reading = FSRDivider.standard.reading(volts: volts)
        #expect(reading.region == .shorted)
        #expect(reading.ohms == 0)
    }

    @Test("with the FSR to ground the rails swap: supply is open, zero is shorted")
    func fsrToGroundRails() throws {
        let divider = try FSRDivider(supplyVolts: 3.3, fixedOhms: 10_000, placement: .fsrToGround)
        #expect(divider.reading(volts: 3.3).region == .open)
        #expect(divider.reading(volts: 0).region == .shorted)
        #expect(divider.outputVolts(fsrOhms: .infinity) == 3.3)
    }

    @Test(
        "impossible circuits are refused with a message that says what to set",
        arguments: [
            (0.0, 10_000.0, "supply volts"), (-3.3, 10_000, "supply volts"), (.nan, 10_000, "supply volts"),
            (3.3, 0, "fixed resistor ohms"), (3.3, .infinity, "fixed resistor ohms")
        ])
    func invalidParameters(supply: Double, fixed: Double, named: String) {
        #expect {
            _ = try FSRDivider(supplyVolts: supply, fixedOhms: fixed)
        } throws: { error in
            let text = (error as? FSRDivider.InvalidParameter)?.description ?? ""
            return text.contains(named) && text.contains("such as")
        }
    }
}

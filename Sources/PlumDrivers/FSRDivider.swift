/// A force-sensitive resistor in a voltage divider with one fixed resistor, and the
/// arithmetic both ways: FSR resistance to output volts, and measured volts back to the FSR's
/// resistance and conductance.
///
/// Mirrors the "FSR voltage divider" of Interlink's FSR Integration Guide: with the FSR from
/// V+ to the output and R_M from the output to ground, `Vout = V+ · R_M / (R_M + R_FSR)`, so
/// the output rises with force and an untouched FSR reads 0 V. Conductance (1 / R_FSR) is
/// roughly proportional to force over the FSR's dynamic range, which is why the weighing
/// engine calibrates against it.
public struct FSRDivider: Hashable, Sendable, CustomStringConvertible {
    /// Which side of the output the FSR sits on.
    public enum Placement: String, Hashable, Sendable, CaseIterable {
        /// FSR from the supply to the output, fixed resistor to ground (the Interlink standard).
        case fsrToSupply = "fsr-to-supply"
        /// Fixed resistor from the supply, FSR to ground: the output falls with force.
        case fsrToGround = "fsr-to-ground"
    }

    /// What a measured output voltage says about the FSR.
    public enum Region: Hashable, Sendable {
        /// Between the rails: the resistance is finite and positive.
        case measurable
        /// No current through the FSR: nothing presses it (at or beyond the open-circuit rail,
        /// which includes small negative readings from ADC offset and noise).
        case open
        /// At or beyond the other rail: the FSR is shorted, or the configured supply is lower
        /// than the real one.
        case shorted
    }

    /// One measured output voltage interpreted.
    public struct Reading: Hashable, Sendable {
        public var volts: Double
        public var region: Region
        /// The FSR's resistance: `.infinity` when open, 0 when shorted.
        public var ohms: Double
        /// The FSR's conductance in microsiemens: 0 when open, `.infinity` when shorted.
        public var microsiemens: Double
    }

    /// The voltage across the divider (the ADC's VDD in the usual wiring).
    public let supplyVolts: Double
    /// The fixed resistor R_M, in ohms.
    public let fixedOhms: Double
    public let placement: Placement

    /// - Throws: ``InvalidParameter`` when the supply or the resistor is not a finite positive number.
    public init(supplyVolts: Double, fixedOhms: Double, placement: Placement = .fsrToSupply) throws(InvalidParameter) {
        guard supplyVolts.isFinite, supplyVolts > 0 else {
            throw InvalidParameter(
                parameter: "supply volts", value: supplyVolts,
                hint: "set it to the voltage across the divider, such as 3.3 for the Pi's 3V3 rail")
        }
        guard fixedOhms.isFinite, fixedOhms > 0 else {
            throw InvalidParameter(
                parameter: "fixed resistor ohms", value: fixedOhms,
                hint: "set it to the fixed resistor's value, such as 10000 for 10 kΩ (Interlink suggests 3–100 kΩ)")
        }
        self.supplyVolts = supplyVolts
        self.fixedOhms = fixedOhms
        self.placement = placement
    }

    /// Interlink's standard divider on a Pi: FSR from 3.3 V, 10 kΩ to ground.
    public static let standard = FSRDivider(checkedSupplyVolts: 3.3, fixedOhms: 10_000, placement: .fsrToSupply)

    private init(checkedSupplyVolts: Double, fixedOhms: Double, placement: Placement) {
        supplyVolts = checkedSupplyVolts
        self.fixedOhms = fixedOhms
        self.placement = placement
    }

    /// Whether the conductance rises with the output voltage (FSR to supply) or falls (FSR to
    /// ground), so that a code pinned at the top of the ADC's range is read on the right side.
    public var conductanceRisesWithVolts: Bool { placement == .fsrToSupply }

    /// The output voltage for an FSR resistance (`.infinity` for an open FSR).
    public func outputVolts(fsrOhms: Double) -> Double {
        let fsr = max(fsrOhms, 0)
        switch placement {
        case .fsrToSupply:
            return fsr.isInfinite ? 0 : supplyVolts * fixedOhms / (fixedOhms + fsr)
        case .fsrToGround:
            return fsr.isInfinite ? supplyVolts : supplyVolts * fsr / (fixedOhms + fsr)
        }
    }

    /// Interprets a measured output voltage.
    ///
    /// FSR to supply: `R_FSR = R_M · (V+ − Vout) / Vout`; FSR to ground:
    /// `R_FSR = R_M · Vout / (V+ − Vout)`. Readings at or past a rail are reported as
    /// ``Region/open`` or ``Region/shorted`` instead of a negative or infinite resistance.
    public func reading(volts: Double) -> Reading {
        let (openRail, shortRail): (Bool, Bool)
        switch placement {
        case .fsrToSupply: (openRail, shortRail) = (volts <= 0, volts >= supplyVolts)
        case .fsrToGround: (openRail, shortRail) = (volts >= supplyVolts, volts <= 0)
        }
        if openRail || volts.isNaN { return Reading(volts: volts, region: .open, ohms: .infinity, microsiemens: 0) }
        if shortRail { return Reading(volts: volts, region: .shorted, ohms: 0, microsiemens: .infinity) }
        let ohms: Double
        switch placement {
        case .fsrToSupply: ohms = fixedOhms * (supplyVolts - volts) / volts
        case .fsrToGround: ohms = fixedOhms * volts / (supplyVolts - volts)
        }
        return Reading(volts: volts, region: .measurable, ohms: ohms, microsiemens: 1e6 / ohms)
    }

    /// "FSR from 3.3 V, 10 kΩ to ground".
    public var description: String {
        switch placement {
        case .fsrToSupply: "FSR from \(supplyVolts) V, \(Self.format(ohms: fixedOhms)) to ground"
        case .fsrToGround: "\(Self.format(ohms: fixedOhms)) from \(supplyVolts) V, FSR to ground"
        }
    }

    /// "10 kΩ", "4.7 kΩ", "470 Ω".
    static func format(ohms: Double) -> String {
        func trimmed(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        if ohms >= 1e6 { return trimmed(ohms / 1e6) + " MΩ" }
        if ohms >= 1e3 { return trimmed(ohms / 1e3) + " kΩ" }
        return trimmed(ohms) + " Ω"
    }

    /// A divider setting that cannot describe a real circuit.
    public struct InvalidParameter: Error, Hashable, Sendable, CustomStringConvertible {
        public var parameter: String
        public var value: Double
        public var hint: String

        public init(parameter: String, value: Double, hint: String) {
            self.parameter = parameter
            self.value = value
            self.hint = hint
        }

        public var description: String {
            "fsr divider \(parameter) must be a finite number above zero, not \(value); \(hint)"
        }
    }
}

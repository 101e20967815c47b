internal import PlumSettings
internal import TOMLKit

/// The `profile` key of a `[[sensor]]` table: which profile, whether it fits, and whether the
/// settings it makes with `[scale]` and the table's own keys can work.
extension SensorConfiguration {
    /// Reads `profile`, refusing an unknown name or one made for another kind, and makes the
    /// profile's wiring defaults the reader's defaults for keys the table leaves out.
    static func profile(_ reader: inout TOMLReader, kind: SourceKind) throws(ConfigurationError) -> HardwareProfile? {
        guard let name = try reader.string("profile") else { return nil }
        let fitting = HardwareProfile.names(fitting: kind)
        guard let profile = HardwareProfile.named(name) else {
            let known = HardwareProfile.builtIn.map(\.name)
            throw reader.error(
                "profile",
                "profile = \"\(name)\" is not a known profile; for kind \"\(kind.rawValue)\" use "
                    + "\(TOMLReader.list(fitting)) (known profiles: \(known.joined(separator: ", ")))")
        }
        guard profile.fits(kind) else {
            let kinds = profile.kinds.map { "\"\($0.rawValue)\"" }
            throw reader.error(
                "profile",
                "profile = \"\(name)\" is made for kind \(TOMLReader.list(kinds)), not \"\(kind.rawValue)\"; "
                    + "for kind \"\(kind.rawValue)\" use \(TOMLReader.list(fitting))")
        }
        reader.defaults = profile.wiringDefaults(for: kind).mapValues { value -> any TOMLValueConvertible in
            switch value {
            case .int(let number): number
            case .double(let number): number
            case .string(let text): text
            }
        }
        return profile
    }

    /// A profile's figures hold for one gain: a table that sets another is refused, naming the
    /// profiles made for that gain.
    static func checkGain(
        of wiring: SensorWiring, fits profile: HardwareProfile?, _ reader: TOMLReader
    ) throws(ConfigurationError) {
        guard let profile, let wanted = profile.gain else { return }
        let gain: Int?
        switch wiring {
        case .hx711(let hx711): gain = hx711.driver.gain.gain
        case .simulatedHX711(let simulated): gain = simulated.driver.gain.gain
        default: gain = nil
        }
        guard let gain, gain != wanted else { return }
        let others = HardwareProfile.builtIn.filter { $0.gain == gain && $0.fits(wiring.kind) }.map(\.name)
        let instead = others.isEmpty ? "" : "use profile \(TOMLReader.list(others)), or "
        throw reader.error(
            "gain",
            "gain = \(gain) does not fit profile \"\(profile.name)\", which is made for gain \(wanted); "
                + "\(instead)leave gain out to use \(wanted)")
    }

    /// The sensor's capacity and division, wherever each came from, must give 10 divisions to
    /// `max_divisions` (10 000, OIML class III, unless raised), as the engine requires: its R 76
    /// limits are in d and assume e = d. The message says which layer set each.
    func checkDivisions(over base: ScaleSettings, _ reader: TOMLReader) throws(ConfigurationError) {
        let settings = sensorSettings(over: base)
        let divisions = settings.capacity / settings.division
        let limit = settings.maxDivisions ?? 10_000
        guard divisions < 10 || divisions > limit * (1 + 1e-9) else { return }
        if divisions > 10 {
            let key =
                scale.divisionGrams != nil ? "division_grams" : (scale.capacityGrams != nil ? "capacity_grams" : nil)
            throw reader.error(
                key ?? (profile?.scale.divisionGrams != nil ? "profile" : nil),
                "division_grams = \(settings.division) (\(origin(of: \.divisionGrams, base: base))) at "
                    + "capacity_grams = \(settings.capacity) (\(origin(of: \.capacityGrams, base: base))) gives "
                    + "\(Int(divisions.rounded())) divisions, over max_divisions = \(Int(limit)) (OIML class III "
                    + "allows 10000; the engine's limits are in d); use division_grams = "
                    + "\(Self.coarserDivision(settings.capacity / limit)) or more, or raise max_divisions in "
                    + "[scale] if the cell truly resolves that many")
        }
        let key = scale.divisionGrams != nil ? "division_grams" : (scale.capacityGrams != nil ? "capacity_grams" : nil)
        throw reader.error(
            key ?? (profile?.scale.divisionGrams != nil ? "profile" : nil),
            "capacity \(settings.capacity) g (\(origin(of: \.capacityGrams, base: base))) at a division of "
                + "\(settings.division) g (\(origin(of: \.divisionGrams, base: base))) gives \(divisions) "
                + "divisions; set capacity_grams or division_grams in this [[sensor]] for at least 10 divisions")
    }

    /// The smallest 1, 2 or 5 × 10^k g at or above `grams`, as written in the file.
    static func coarserDivision(_ grams: Double) -> String {
        for exponent in -4...5 {
            for mantissa in [1, 2, 5] {
                guard let value = Double("\(mantissa)e\(exponent)"), value >= grams * (1 - 1e-9) else { continue }
                return exponent >= 0 ? String(Int(value)) : String(value)
            }
        }
        return String(grams)
    }

    /// The layers applied as ``PlumConfiguration/scaleSettings(for:)`` does, over `base`.
    func sensorSettings(over base: ScaleSettings) -> ScaleSettings {
        (profile.map { base.overridden(by: $0.scale) } ?? base).overridden(by: scale)
    }

    /// Which layer set a setting: this table, its profile, or `[scale]` and the defaults.
    func origin(of key: KeyPath<ScaleSettings, Double?>, base: ScaleSettings) -> String {
        if scale[keyPath: key] != nil { return "set in this [[sensor]]" }
        if let profile, profile.scale[keyPath: key] != nil { return "from profile \"\(profile.name)\"" }
        return "from [scale]"
    }
}

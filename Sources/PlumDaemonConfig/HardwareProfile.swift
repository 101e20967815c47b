package import PlumSettings

/// A ready set of settings for one kind of sensor hardware, chosen with
/// `[[sensor]] profile = "…"` instead of tuning numbers by hand.
///
/// A profile says what suits the hardware: the division its noise allows, how long to average
/// and how still the reading must be (as times, so one profile serves an HX711 at 10 and at
/// 80 SPS alike), whether zero-tracking makes sense, and wiring defaults such as an FSR's
/// divider. It is one layer: over `[scale]`, under the sensor's own keys. The figures are those
/// of the files in `Calibration/profiles`, which also give each sensor's signal per gram.
package struct HardwareProfile: Hashable, Sendable {
    /// A wiring key's value, as it would be written in the `[[sensor]]` table.
    package enum WiringValue: Hashable, Sendable {
        case int(Int)
        case double(Double)
        case string(String)
    }

    /// The name written after `profile =`, such as `hx711-1kg-gain128`.
    package var name: String
    /// One line for people choosing a profile.
    package var summary: String
    /// The sensor kinds the profile is made for.
    package var kinds: [SourceKind]
    /// The HX711 gain the figures hold for; a sensor with another `gain` is refused.
    package var gain: Int?
    /// Keys of the `[[sensor]]` table the profile fills in when the table leaves them out.
    package var wiring: [String: WiringValue]
    /// The scale settings the profile sets; keys it leaves out come from `[scale]`.
    package var scale: ScaleSettings
    /// The signal per gram its cell and gain give (`nominalSignalPerGram` of its file), which a
    /// calibration far from is flagged for confirmation; nil when not a fixed figure.
    package var nominalSignalPerGram: Double?

    package init(
        name: String, summary: String, kinds: [SourceKind], gain: Int? = nil, wiring: [String: WiringValue] = [:],
        scale: ScaleSettings, nominalSignalPerGram: Double? = nil
    ) {
        self.name = name
        self.summary = summary
        self.kinds = kinds
        self.gain = gain
        self.wiring = wiring
        self.scale = scale
        self.nominalSignalPerGram = nominalSignalPerGram
    }

    /// Whether a sensor of `kind` can use this profile.
    package func fits(_ kind: SourceKind) -> Bool { kinds.contains(kind) }

    /// The wiring defaults that are keys of `kind` (a replayed trace has no gain to set).
    func wiringDefaults(for kind: SourceKind) -> [String: WiringValue] {
        kind == .replay ? [:] : wiring
    }

    /// The profile called `name`, or nil.
    package static func named(_ name: String) -> HardwareProfile? {
        builtIn.first { $0.name == name }
    }

    /// The names of the profiles that fit `kind`, in catalogue order.
    package static func names(fitting kind: SourceKind) -> [String] {
        builtIn.filter { $0.fits(kind) }.map(\.name)
    }

    /// Every profile this PlumScale knows.
    package static let builtIn: [HardwareProfile] = [
        loadCell("hx711-1kg-gain128", gain: 128, division: 0.1, 2147, "1 kg bar cell, HX711 channel A at gain 128"),
        loadCell("hx711-1kg-gain64", gain: 64, division: 0.2, 1074, "1 kg bar cell, HX711 channel A at gain 64"),
        loadCell("hx711-5kg-gain128", gain: 128, division: 0.5, 429, "5 kg bar cell, HX711 channel A at gain 128"),
        loadCell("hx711-5kg-gain64", gain: 64, division: 1, 215, "5 kg bar cell, HX711 channel A at gain 64"),
        HardwareProfile(
            name: "fsr402-10k-3v3",
            summary: "Interlink FSR 402 over a 10 kΩ resistor at 3.3 V on an ADS1115: an indicator, not a scale",
            kinds: [.ads1115, .simulatedFSR],
            wiring: ["divider_ohms": .double(10_000), "supply_volts": .double(3.3), "fsr_side": .string("supply")],
            // FSR creep and drift under a standing load are not a drift of zero: tracking would
            // take them away. Its noise (about 0.5 g) needs a 1 g division and a 2 d band.
            scale: ScaleSettings(
                divisionGrams: 1, zeroTracking: false, averagingMilliseconds: 125, stabilityWindowMilliseconds: 300,
                stabilityBandDivisions: 2, stepThresholdDivisions: 10)),
        kernelCell("iio-hx711-1kg", division: 0.1, "1 kg bar cell on the kernel's hx711 driver (channel A, gain 128)"),
        kernelCell("iio-hx711-5kg", division: 0.5, "5 kg bar cell on the kernel's hx711 driver (channel A, gain 128)")
    ]

    /// The tuning every bar cell shares: τ 200 ms, a 300 ms window, a 1 d band, steps of 4 d.
    /// Zero-tracking is left to `[scale]` (on by default): the cell's zero does drift.
    private static let cellTuning = ScaleSettings(
        averagingMilliseconds: 200, stabilityWindowMilliseconds: 300, stabilityBandDivisions: 1,
        stepThresholdDivisions: 4)

    private static func loadCell(
        _ name: String, gain: Int, division: Double, _ perGram: Double, _ summary: String
    ) -> HardwareProfile {
        var scale = cellTuning
        scale.divisionGrams = division
        return HardwareProfile(
            name: name, summary: summary, kinds: [.hx711, .simulatedHX711, .replay], gain: gain,
            wiring: ["gain": .int(gain)], scale: scale, nominalSignalPerGram: perGram)
    }

    private static func kernelCell(_ name: String, division: Double, _ summary: String) -> HardwareProfile {
        var scale = cellTuning
        scale.divisionGrams = division
        return HardwareProfile(name: name, summary: summary, kinds: [.iio], scale: scale)
    }
}

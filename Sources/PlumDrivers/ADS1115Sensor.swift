public import PlumHardware

/// One channel of one ADS1115 as a ``SampleSource``: millivolts, or an FSR's conductance when
/// the channel reads an ``FSRDivider``.
///
/// `raw` is the 16-bit Conversion register; `signal` is the FSR's conductance in microsiemens
/// (``SignalKind/fsrConductance``) or the input in millivolts (``SignalKind/millivolts``).
/// Codes 7FFFh and 8000h are flagged over and under range *of the signal*: for an FSR on the
/// ground side, whose conductance falls as the voltage rises, 7FFFh is the conductance pinned
/// at its bottom (under range: an untouched FSR on a supply above the range), not an overload.
/// A divider output at the shorted rail is flagged over range, and its signal is then the
/// largest conductance one code below that rail can show, so the engine never sees infinity.
public final class ADS1115Sensor<Bus: SMBusDevice, Time: MonotonicClock, Ready: GPIOEdgeLine>: SampleSource {
    public let info: SourceInfo
    public private(set) var statistics = DriverStatistics()
    /// The driver, for scanning other channels or reading registers directly.
    public private(set) var chip: ADS1115<Bus, Time, Ready>
    public let config: ADS1115Config
    public let divider: FSRDivider?
    /// Flags stamped on every sample, such as ``SampleFlags/simulated`` for a chip model.
    public let extraFlags: SampleFlags
    private var pendingDiscards = DiscardCounts()

    /// - Parameters:
    ///   - name: the sensor's configured name, such as "left".
    ///   - chip: the driver for the ADS1115 the channel belongs to.
    ///   - config: the channel's settings (MUX, range, rate, mode).
    ///   - divider: the FSR divider on this channel, or `nil` to publish millivolts.
    ///   - readyLineDescription: where ALERT/RDY is wired, for the wiring text ("gpiochip0 line 22").
    ///   - extraFlags: flags for every sample.
    public init(
        name: String, chip: ADS1115<Bus, Time, Ready>, config: ADS1115Config, divider: FSRDivider? = nil,
        readyLineDescription: String? = nil, extraFlags: SampleFlags = []
    ) {
        self.chip = chip
        self.config = config
        self.divider = divider
        self.extraFlags = extraFlags
        var wiring = "\(chip.bus.subject) \(config)"
        if let readyLineDescription, chip.readyLine != nil { wiring += ", ALERT/RDY on \(readyLineDescription)" }
        if let divider { wiring += ", \(divider)" }
        var notices: [String] = []
        if config.mode == .continuous && chip.readyLine == nil {
            notices.append(
                "continuous mode without ALERT/RDY: reads are paced at 1.1 conversion times and a stalled chip cannot "
                    + "be detected"
            )
        }
        if let divider, divider.supplyVolts > config.gain.fullScaleVolts {
            notices.append(Self.rangeNotice(divider: divider, gain: config.gain))
        }
        info = SourceInfo(
            name: name, kind: "ads1115", wiring: wiring,
            signal: divider == nil ? .millivolts : .fsrConductance,
            nominalRate: Double(config.dataRate.samplesPerSecond), notices: notices)
    }

    public func next() throws(SensorError) -> Sample {
        let conversion: ADS1115Conversion
        do {
            conversion = try chip.read(config)
            statistics.hardwareOperations = chip.operations
        } catch {
            statistics.hardwareOperations = chip.operations
            switch error {
            case .hardware(let hardwareError):
                throw .hardware(sensor: info.name, hardwareError)
            case .notReady(_, let waited, let detail, let hint):
                statistics.notReady &+= 1
                throw .notReady(sensor: info.name, waited: waited, hint: "\(detail); \(hint)")
            }
        }
        var flags = extraFlags
        var pinnedHigh = conversion.isOverRange
        var pinnedLow = conversion.isUnderRange
        // The flags speak of the signal: where the conductance falls as the code rises, a code
        // pinned at the top is the conductance pinned at its bottom.
        if let divider, !divider.conductanceRisesWithVolts { swap(&pinnedHigh, &pinnedLow) }
        if pinnedHigh { flags.insert(.overRange) }
        if pinnedLow { flags.insert(.underRange) }
        let signal: Double
        if let divider {
            let reading = divider.reading(volts: conversion.volts)
            switch reading.region {
            case .measurable, .open:
                signal = reading.microsiemens
            case .shorted:
                flags.insert(.overRange)
                signal = ceilingMicrosiemens(divider)
            }
        } else {
            signal = conversion.volts * 1000
        }
        if flags.contains(.overRange) || flags.contains(.underRange) { statistics.saturated &+= 1 }
        pendingDiscards.stale &+= conversion.staleDiscarded
        statistics.discarded.stale &+= conversion.staleDiscarded
        let sample = Sample(
            raw: Int32(conversion.code), signal: signal, time: conversion.time, edgeTime: conversion.edgeTime,
            flags: flags, discarded: pendingDiscards)
        pendingDiscards = DiscardCounts()
        statistics.published &+= 1
        return sample
    }

    /// The warning for a divider whose supply the range does not cover, saying which loads it
    /// cannot show, on which side, and which range would.
    static func rangeNotice(divider: FSRDivider, gain: ADS1115Config.ProgrammableGain) -> String {
        let edge = divider.reading(volts: gain.fullScaleVolts)
        let microsiemens = String(Int(edge.microsiemens.rounded()))
        let ohms = FSRDivider.format(ohms: (edge.ohms / 100).rounded() * 100)
        let fix =
            ADS1115Config.ProgrammableGain.allCases
            .filter { $0.fullScaleVolts >= divider.supplyVolts }
            .min { $0.fullScaleVolts < $1.fullScaleVolts }
            .map { "use pga_volts = \($0.fullScaleVolts), which covers the supply" }
            ?? "lower the divider's supply below 6.144 V"
        let range = "range \(gain) is below the divider's \(divider.supplyVolts) V supply"
        if divider.conductanceRisesWithVolts {
            return "\(range): presses above \(microsiemens) µS (the FSR under \(ohms)) read over range, "
                + "shown as \"100%+\"; \(fix)"
        }
        return "\(range): with the FSR on the ground side, an untouched FSR and presses below \(microsiemens) µS "
            + "(the FSR over \(ohms)) read under range, with no weight shown; \(fix)"
    }

    /// The conductance one code short of the shorted rail: the most this channel can show.
    private func ceilingMicrosiemens(_ divider: FSRDivider) -> Double {
        let lsb = config.gain.lsbVolts
        let limit = min(divider.supplyVolts, config.gain.fullScaleVolts)
        let volts = divider.placement == .fsrToSupply ? limit - lsb : lsb
        let reading = divider.reading(volts: volts)
        return reading.microsiemens.isFinite ? reading.microsiemens : 0
    }
}

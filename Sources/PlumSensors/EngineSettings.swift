package import PlumCore
package import PlumDaemonConfig
package import PlumSettings

/// The weighing engine's settings from the configuration: the one conversion, so that no
/// setting is lost on the way from the file to the engine.
extension ScaleConfiguration {
    /// The engine's settings for a resolved set of scale settings (`[scale]`, a profile and a
    /// sensor's own keys, already layered); windows given in milliseconds become times.
    /// - Throws: ``Refusal`` when the engine cannot work with them.
    package init(_ settings: ScaleSettings, stableWeightCue: Bool = false) throws(Refusal) {
        self.init()
        capacity = settings.capacity
        division = try Division(grams: settings.division)
        zeroTracking = settings.tracksZero
        initialZeroSetting = settings.setsInitialZero
        restoreTare = settings.restoresTare
        recognizeContainers = settings.recognizesContainers
        if let milliseconds = settings.averagingMilliseconds { filter.averagingTime = Self.nanoseconds(milliseconds) }
        if let milliseconds = settings.stabilityWindowMilliseconds { stabilityWindow = Self.nanoseconds(milliseconds) }
        if let band = settings.stabilityBandDivisions { stabilityBand = band }
        if let threshold = settings.stepThresholdDivisions { filter.stepThreshold = threshold }
        if let milliseconds = settings.flowWindowMilliseconds { flowWindow = Self.nanoseconds(milliseconds) }
        if let seconds = settings.warmUpSeconds { warmUp = Self.nanoseconds(seconds * 1000) }
        if let limit = settings.maxDivisions { maxDivisions = limit }
        if let slope = settings.stabilitySlopeDivisions { stabilitySlope = slope }
        if let hysteresis = settings.displayHysteresisDivisions { displayHysteresis = hysteresis }
        if let minimum = settings.minimumWeightDivisions { minimumWeightDivisions = Int64(minimum) }
        if let rate = settings.zeroTrackingRateDivisions { zeroTrackingRate = rate }
        if let band = settings.zeroTrackingBandDivisions { zeroTrackingBand = band }
        cue.stableWeightCue = stableWeightCue
        if case .failure(let refusal) = validate() { throw refusal }
    }

    private static func nanoseconds(_ milliseconds: Double) -> UInt64 { UInt64((milliseconds * 1e6).rounded()) }
}

extension PlumConfiguration {
    /// The settings `sensor`'s engine runs with: defaults, `[scale]`, its profile, its own keys,
    /// and `[cue] on_stable`.
    package func engineConfiguration(for sensor: SensorConfiguration) throws(Refusal) -> ScaleConfiguration {
        var configuration = try ScaleConfiguration(scaleSettings(for: sensor), stableWeightCue: cue?.onStable ?? false)
        configuration.nominalSignalPerGram = sensor.profile?.nominalSignalPerGram
        return configuration
    }
}

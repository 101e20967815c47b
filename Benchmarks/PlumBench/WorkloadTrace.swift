package import PlumDrivers
internal import PlumHardware
internal import PlumSimulation

/// The conversions the real HX711 driver read from the chip model while a workload ran, with
/// the true weight at each: the same samples every filter is measured on.
package struct WorkloadTrace: Sendable {
    package struct Point: Hashable, Sendable {
        /// Seconds since the workload started.
        package var time: Double
        /// Monotonic nanoseconds, as the engine sees them.
        package var nanoseconds: UInt64
        package var raw: Int32
        package var flags: SampleFlags
        /// The weight a display should settle to (no ringing, no knocks).
        package var truth: Double
        /// What the pan felt at that moment (ringing and knocks included, no noise).
        package var felt: Double
    }

    package let workload: Workload
    package let rate: HX711Rate
    package let points: [Point]
    /// Seconds at which the display is expected to settle again.
    package let changes: [Double]

    /// Runs `workload` through the chip model (1 kg cell, 1 mV/V, 3.3 V, channel A gain 128,
    /// datasheet noise for `rate`, creep and drift) and the real driver, on virtual time.
    package init(workload: Workload, rate: HX711Rate, seed: UInt64) throws {
        let clock = VirtualClock()
        let origin = clock.now()
        let load = ScriptedLoad(workload.events, origin: origin)
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.seed = seed
        let sim = try SimulatedHX711(
            name: workload.name, clock: clock, load: load,
            driver: HX711Configuration(gain: .channelA128, rate: rate), chip: chip)
        let end = origin.advanced(byNanoseconds: UInt64(workload.duration * 1e9))
        var points: [Point] = []
        while clock.now() < end {
            let sample = try sim.sensor.next()
            // The chip converts the input it saw during the conversion that just ended: the
            // truth a sample can show is the one from a period before its ready edge.
            let converted =
                (sample.edgeTime ?? sample.time).nanoseconds
                - min(rate.period.nanoseconds, (sample.edgeTime ?? sample.time).nanoseconds)
            points.append(
                Point(
                    time: Double(sample.time.nanoseconds(since: origin)) / 1e9, nanoseconds: sample.time.nanoseconds,
                    raw: sample.raw, flags: sample.flags,
                    truth: load.truth(at: MonotonicInstant(nanoseconds: converted)),
                    felt: load.grams(at: MonotonicInstant(nanoseconds: converted))))
        }
        self.workload = workload
        self.rate = rate
        self.points = points
        changes = load.changes
    }

    /// The same conversions with extra noise of `sigma` grams rms added to each, and a mid-read
    /// spike of 5 to 50 g either way on about one conversion in `spikeEvery` (0: none): a noisier
    /// cell or amplifier than the datasheet's, for the benchmark's noise levels.
    package func addingNoise(sigma: Double, spikeEvery: Int, countsPerGram: Double, seed: UInt64) -> WorkloadTrace {
        var random = SeededRandom(seed: SeededRandom.scattered(seed))
        let noisy = points.map { point in
            var point = point
            var grams = random.gaussian() * sigma
            if spikeEvery > 0, random.unit() < 1 / Double(spikeEvery) {
                grams += (random.unit() < 0.5 ? -1 : 1) * (5 + 45 * random.unit())
            }
            let code = (Double(point.raw) + grams * countsPerGram).rounded()
            point.raw = Int32(max(-8_388_608, min(8_388_607, code)))
            return point
        }
        return WorkloadTrace(workload: workload, rate: rate, points: noisy, changes: changes)
    }

    private init(workload: Workload, rate: HX711Rate, points: [Point], changes: [Double]) {
        self.workload = workload
        self.rate = rate
        self.points = points
        self.changes = changes
    }

    /// The codes for a known load with noise, creep and drift turned off: the benchmark's
    /// known-weight calibration, shared by every filter.
    package static func calibrationCode(grams: Double, rate: HX711Rate) throws -> Int32 {
        try SimulatedHX711<VirtualClock>.noiselessCode(
            grams: grams, driver: HX711Configuration(gain: .channelA128, rate: rate))
    }

    /// Writes the trace as CSV that `plumscale raw` replays (`time_s,sensor,raw`), and the truth
    /// beside it (`time_s,grams`).
    package func write(directory: String) throws {
        let stem = "\(directory)/\(workload.name)-\(Int(rate.samplesPerSecond))sps"
        let recorder = try TraceRecorder(path: stem + ".csv")
        for point in points {
            try recorder.record(
                Sample(
                    raw: point.raw, signal: Double(point.raw), time: MonotonicInstant(nanoseconds: point.nanoseconds)),
                sensor: workload.name)
        }
        try recorder.close()
        var truth = "time_s,grams\n"
        for point in points { truth += "\(point.time),\(point.truth)\n" }
        try CSVFile.write(truth, to: stem + "-truth.csv")
    }
}

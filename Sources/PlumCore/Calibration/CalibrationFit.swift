#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Fits a calibration to captured points, or refuses with what to do instead.
///
/// Load cell: least squares of signal on known grams, linear or (when asked and with enough
/// weights) quadratic. FSR: a power law conductance = leakage + k·g^n, with the leakage taken
/// from the empty pan and k, n fitted by least squares in log–log space (docs/engine.md says
/// why this and not an interpolating spline).
public enum CalibrationFit {
    /// The notice every FSR calibration carries.
    public static let fsrNotice =
        "An FSR is a force indicator, not a scale: expect ±5–25 % from part to part, with "
        + "drift under a constant load and hysteresis. It is not legal for trade; use a load cell for weighing."

    /// Fits `points` for a sensor of `kind`.
    ///
    /// - Parameters:
    ///   - quadratic: add a curvature term (load cells only; needs three known weights besides zero).
    ///   - createdAt: the ISO 8601 time to record.
    /// - Returns: the calibration, or a refusal that names the problem and the remedy.
    public static func fit(
        points: [CalibrationPoint], sensor: SensorIdentity, kind: SensorKind,
        configuration: ScaleConfiguration, quadratic: Bool = false, createdAt: String
    ) -> Result<Calibration, Refusal> {
        let division = configuration.division
        let capacity = configuration.capacity
        func grams(_ value: Double) -> String { division.format(value) + " g" }

        for point in points {
            guard point.grams.isFinite, point.signal.isFinite, point.noise.isFinite, point.noise >= 0 else {
                return .failure(
                    Refusal(
                        .invalidWeight, "a calibration point is not a finite number", hint: "capture the point again"))
            }
            guard point.grams >= 0, point.grams <= configuration.overloadLimit else {
                return .failure(
                    Refusal(
                        .invalidWeight, "known weight \(grams(point.grams)) is outside 0 ... \(grams(capacity))",
                        hint: "use weights between empty and the capacity"))
            }
        }
        guard points.contains(where: { $0.grams == 0 }) else {
            return .failure(
                Refusal(.tooFewPoints, "no empty-pan (0 g) point", hint: "capture zero with the pan empty first"))
        }
        // Mean signal and largest noise per distinct weight, in ascending weight.
        var levels: [(grams: Double, signal: Double, noise: Double)] = []
        for weight in Set(points.map(\.grams)).sorted() {
            let same = points.filter { $0.grams == weight }
            let signal = same.map(\.signal).reduce(0, +) / Double(same.count)
            levels.append((weight, signal, same.map(\.noise).max() ?? 0))
        }
        let needed = kind == .fsr ? 4 : (quadratic ? 4 : 2)
        guard levels.count >= needed else {
            let what =
                kind == .fsr
                ? "an FSR fit needs zero and at least 3 different known weights"
                : quadratic
                    ? "a quadratic fit needs zero and at least 3 different known weights"
                    : "a fit needs zero and at least one known weight"
            return .failure(
                Refusal(
                    .tooFewPoints, "\(what); have \(levels.count - 1) besides zero",
                    hint: "add known weights spread over the range"))
        }
        let span = levels[levels.count - 1].grams - levels[0].grams
        guard span >= 0.2 * capacity else {
            return .failure(
                Refusal(
                    .spanTooSmall,
                    "the known weights span \(grams(span)), under 20 % of capacity (\(grams(0.2 * capacity)))",
                    hint:
                        "add a known weight of at least \(grams(0.2 * capacity)), ideally near "
                        + "\(grams(capacity * 2 / 3)) or more"
                ))
        }
        let minimumGap = max(10 * division.grams, 0.01 * capacity)
        for (low, high) in zip(levels, levels.dropFirst()) {
            guard high.grams - low.grams >= minimumGap else {
                return .failure(
                    Refusal(
                        .pointsTooClose,
                        "known weights \(grams(low.grams)) and \(grams(high.grams)) are closer than "
                            + "\(grams(minimumGap))",
                        hint: "use weights that differ more, or repeat the same weight instead"))
            }
        }
        let direction = levels[1].signal - levels[0].signal
        for (low, high) in zip(levels, levels.dropFirst()) {
            let step = high.signal - low.signal
            let rising = kind == .fsr ? step > 0 : step * direction > 0
            guard rising else {
                let expectation =
                    kind == .fsr
                    ? "conductance must rise with weight" : "the signal must move the same way for every added weight"
                return .failure(
                    Refusal(
                        .nonMonotone,
                        "the signal at \(grams(high.grams)) (\(high.signal)) does not continue the trend from "
                            + "\(grams(low.grams)) (\(low.signal)): \(expectation)",
                        hint:
                            "check that the right weight was on the pan and nothing touched it, then capture that "
                            + "point again"
                    ))
            }
            let noise = (low.noise * low.noise + high.noise * high.noise).squareRoot()
            guard abs(step) > 3 * noise else {
                return .failure(
                    Refusal(
                        .noiseLargerThanStep,
                        "between \(grams(low.grams)) and \(grams(high.grams)) the signal moved \(abs(step)) but its "
                            + "noise is \(noise)",
                        hint:
                            "let the sensor warm up, shield it from draught and vibration, or use weights further apart"
                    ))
            }
        }

        let model: CalibrationModel
        switch kind {
        case .loadCell:
            let rows = points.map { point -> [Double] in
                let t = point.grams / capacity
                return quadratic ? [1, t, t * t] : [1, t]
            }
            guard let solution = LeastSquares.solve(rows: rows, values: points.map(\.signal)) else {
                return .failure(
                    Refusal(
                        .fitFailed, "the least-squares fit has no unique solution",
                        hint: "capture zero and the known weights again"))
            }
            let curvature = quadratic ? solution[2] / (capacity * capacity) : 0
            model = .polynomial(offset: solution[0], scale: solution[1] / capacity, curvature: curvature)
            let low = model.slope(atGrams: -configuration.zeroRange)
            let high = model.slope(atGrams: configuration.overloadLimit)
            guard low * high > 0, solution[1] != 0 else {
                return .failure(
                    Refusal(
                        .nonMonotone, "the quadratic term bends the curve back within the scale's range",
                        hint: "fit without the quadratic term, or check the points for a mistaken weight"))
            }
        case .fsr:
            let leakage = levels[0].signal
            let loaded = points.filter { $0.grams > 0 }
            guard loaded.allSatisfy({ $0.signal > leakage }) else {
                return .failure(
                    Refusal(
                        .nonMonotone, "a loaded point's conductance is not above the empty pan's (\(leakage) µS)",
                        hint: "press the weight onto the FSR's active area through a puck, then capture again"))
            }
            let logCapacity = log(capacity)
            let rows = loaded.map { [1, log($0.grams) - logCapacity] }
            guard let solution = LeastSquares.solve(rows: rows, values: loaded.map { log($0.signal - leakage) }),
                solution[1] > 0, solution[1].isFinite
            else {
                return .failure(
                    Refusal(
                        .fitFailed, "the power-law fit did not give a rising curve",
                        hint: "capture the points again with weights spread over the range"))
            }
            // Fitted against g / capacity for conditioning; convert back to µS per gram^n.
            let exponent = solution[1]
            model = .powerLaw(
                leakage: leakage, coefficient: exp(solution[0] - exponent * logCapacity), exponent: exponent)
        }

        var residuals: [Double] = []
        for point in points {
            guard let fitted = model.grams(fromSignal: point.signal) else {
                return .failure(
                    Refusal(
                        .fitFailed, "the fitted curve cannot be inverted at \(grams(point.grams))",
                        hint: "fit without the quadratic term"))
            }
            residuals.append(fitted - point.grams)
        }
        // Redundancy: more distinct loads than the model has parameters (linear 2, quadratic 3;
        // the FSR's leakage is the zero point, so its k and n need 3 loaded weights).
        let parameters = kind == .fsr ? 3 : (quadratic ? 3 : 2)
        var quality = assess(
            kind: kind, points: points, residuals: residuals, division: division,
            checked: levels.count > parameters)
        if kind == .loadCell, let nominal = configuration.nominalSignalPerGram {
            quality.warning = plausibility(perGram: abs(model.slope(atGrams: capacity / 2)), nominal: nominal)
            if let warning = quality.warning { quality.summary += "; " + warning }
        }
        return .success(
            Calibration(
                sensor: sensor, kind: kind, model: model, capacity: capacity, points: points, residuals: residuals,
                quality: quality, createdAt: createdAt, notice: kind == .fsr ? fsrNotice : nil))
    }

    /// How far a load cell's fitted signal per gram may lie from the profile's nominal one: a
    /// cell's rated output varies by some ±10–20 % and cells of 2 mV/V exist beside 1 mV/V,
    /// while a weight typed as twice what was on the pan is off by a factor of 2.
    public static let plausibleFactor = 1.5

    /// A warning when `perGram` lies outside nominal ÷ 1.5 … nominal × 1.5, nil otherwise.
    static func plausibility(perGram: Double, nominal: Double) -> String? {
        let ratio = perGram / abs(nominal)
        guard ratio.isFinite, ratio < 1 / plausibleFactor || ratio > plausibleFactor else { return nil }
        let fitted = Reading.fixed(perGram, decimals: perGram < 10 ? 3 : 0)
        let expected = Reading.fixed(abs(nominal), decimals: abs(nominal) < 10 ? 3 : 0)
        let what = ratio < 1 ? "a heavier weight than was on the pan" : "a lighter weight than was on the pan"
        return "check before saving: \(fitted) per gram is \(Reading.fixed(ratio, decimals: 2)) × the \(expected) the "
            + "profile's cell and gain give, as if \(what) had been typed; confirm the weights"
    }

    private static func assess(
        kind: SensorKind, points: [CalibrationPoint], residuals: [Double], division: Division, checked: Bool
    ) -> FitQuality {
        let rms = (residuals.map { $0 * $0 }.reduce(0, +) / Double(residuals.count)).squareRoot()
        let worst = residuals.map(abs).max() ?? 0
        let relative = zip(points, residuals).filter { $0.0.grams > 0 }.map { $0.1 / $0.0.grams }
        let rmsRelative =
            relative.isEmpty ? 0 : (relative.map { $0 * $0 }.reduce(0, +) / Double(relative.count)).squareRoot()
        let grade: FitQuality.Grade
        let summary: String
        let percent = Int((rmsRelative * 100).rounded())
        switch kind {
        case .loadCell:
            let inDivisions = worst / division.grams
            grade = inDivisions <= 1 ? .good : inDivisions <= 5 ? .acceptable : .poor
            summary =
                "largest residual \(Reading.fixed(worst, decimals: division.decimals + 2)) g "
                + "(\(Reading.fixed(inDivisions, decimals: 1)) d): "
                + (grade == .good
                    ? "within one division, as a sound load cell should be"
                    : grade == .acceptable
                        ? "usable; recalibrate after warm-up for better"
                        : "too large: check the weights, the mounting and that nothing touches the pan")
        case .fsr:
            grade = rmsRelative <= 0.05 ? .good : rmsRelative <= 0.25 ? .acceptable : .poor
            summary =
                "RMS error \(percent) % of the known weights: "
                + (grade == .poor
                    ? "worse than an FSR's usual ±25 %; recentre the puck and capture again"
                    : "typical for an FSR indicator")
        }
        guard checked else {
            return FitQuality(
                rmsResidual: rms, maxResidual: worst, rmsRelativeResidual: rmsRelative, grade: .notChecked,
                summary:
                    "not checked: a line through zero and one known weight fits both exactly whatever was on the "
                    + "pan; add a third point, a different known weight, to check it")
        }
        return FitQuality(
            rmsResidual: rms, maxResidual: worst, rmsRelativeResidual: rmsRelative, grade: grade, summary: summary)
    }
}

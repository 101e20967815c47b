/// The calibration procedure's steps on an engine: begin, capture the empty pan and known
/// weights, fit, then commit or abandon (docs/engine.md, "Calibration").
extension WeighingEngine {
    /// Starts a calibration procedure (replacing one that runs).
    public mutating func beginCalibration(quadratic: Bool = false, captureSamples: Int = 24) {
        procedure = CalibrationProcedure(
            sensor: sensor, kind: kind, quadratic: quadratic, captureSamples: captureSamples)
    }

    /// Captures the empty pan once stable. When calibrated, refuses a pan that is clearly loaded.
    public mutating func captureZero() -> Result<Void, Refusal> {
        guard var running = procedure else { return .failure(noProcedure) }
        if let gross = lastReading?.gross, calibration != nil, abs(gross + zeroOffset) > configuration.zeroRange {
            return .failure(
                Refusal(
                    .wrongStep, "the pan is not empty: it reads \(grams(gross + zeroOffset))",
                    hint: "remove everything from the pan, then capture zero"))
        }
        defer { procedure = running }
        return running.captureZero()
    }

    /// Captures a known weight (grams) once stable.
    public mutating func captureWeight(grams: Double) -> Result<Void, Refusal> {
        guard var running = procedure else { return .failure(noProcedure) }
        defer { procedure = running }
        return running.capturePoint(grams: grams)
    }

    /// Fits the captured points and puts the result into use.
    ///
    /// - Returns: the calibration to store, or why it was refused (the procedure stays open so
    ///   another weight can be added).
    public mutating func commitCalibration(createdAt: String) -> Result<Calibration, Refusal> {
        guard let procedure else { return .failure(noProcedure) }
        switch procedure.fit(configuration: configuration, createdAt: createdAt) {
        case .failure(let refusal):
            return .failure(refusal)
        case .success(let calibration):
            if case .failure(let refusal) = install(calibration) { return .failure(refusal) }
            self.procedure = nil
            // Its zero was captured just now: nothing for initial zero-setting to take up.
            awaitingInitialZero = false
            return .success(calibration)
        }
    }

    /// Fits the captured points without putting the result into use, so a person can see the
    /// fit and its residuals before deciding to commit.
    public func previewCalibration(createdAt: String) -> Result<Calibration, Refusal> {
        guard let procedure else { return .failure(noProcedure) }
        return procedure.fit(configuration: configuration, createdAt: createdAt)
    }

    /// Abandons a capture still waiting for stable; the procedure and its points stay.
    public mutating func cancelCapture() { procedure?.cancelCapture() }

    /// Abandons the calibration procedure; the calibration in use is unchanged.
    public mutating func cancelCalibration() { procedure = nil }

    private var noProcedure: Refusal {
        Refusal(.noProcedure, "no calibration is running on \(sensor.id)", hint: "begin a calibration first")
    }
}

import PlumCore

@testable import PlumStore

/// A sensor and a linear calibration to store: an HX711 at gain 128, 420 counts per gram.
enum Fixtures {
    static let countsPerGram = 420.0
    static let emptyCounts = 8_000.0

    static let sensor = SensorIdentity(id: "left", model: "HX711 + 5 kg cell", channel: "A", gain: 128)

    static func linearCalibration(sensor: SensorIdentity = sensor, createdAt: String = "2026-05-01T09:30:00Z")
        -> Calibration
    {
        let points = [0.0, 100, 200, 300].map {
            CalibrationPoint(grams: $0, signal: emptyCounts + countsPerGram * $0, noise: 10, samples: 24)
        }
        let result = CalibrationFit.fit(
            points: points, sensor: sensor, kind: .loadCell, configuration: ScaleConfiguration(), createdAt: createdAt)
        guard case .success(let calibration) = result else { preconditionFailure("fixture fit failed: \(result)") }
        return calibration
    }
}

extension Result where Failure == CalibrationStoreError {
    /// The store error's code, or `nil` on success.
    var storeErrorCode: CalibrationStoreError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

package import PlumCore

/// A sensor and its known-weight calibration, the same in every test that needs one: an HX711
/// at gain 128 with a 5 kg, 1 mV/V cell (420 counts per gram over an empty pan at 8000), fitted
/// from four points as `plumscale calibrate` would.
package enum CalibrationFixture {
    package static let countsPerGram = 420.0
    package static let emptyCounts = 8_000.0
    package static let sensor = SensorIdentity(id: "left", model: "HX711 + 5 kg cell", channel: "A", gain: 128)

    /// The linear calibration of `sensor` through 0, 100, 200 and 300 g.
    package static func linear(sensor: SensorIdentity = sensor, createdAt: String = "2026-05-01T09:30:00Z")
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

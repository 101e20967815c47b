import PlumCore
import PlumTestSupport

@testable import PlumStore

/// The shared sensor and calibration (``CalibrationFixture``), by the names the store tests use.
enum Fixtures {
    static let sensor = CalibrationFixture.sensor

    static func linearCalibration(createdAt: String = "2026-05-01T09:30:00Z") -> Calibration {
        CalibrationFixture.linear(createdAt: createdAt)
    }
}

extension Result where Failure == CalibrationStoreError {
    /// The store error's code, or `nil` on success.
    var storeErrorCode: CalibrationStoreError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

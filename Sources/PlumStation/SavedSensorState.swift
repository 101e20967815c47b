internal import PlumCore
internal import PlumDaemonConfig
internal import PlumStore

/// What a sensor had saved before the last stop, as the station read it from the state
/// directory: the values, and why one could not be used. The station reads the files; the
/// channels, and the engines in them, only get values (``ChannelSet``).
struct SavedSensorState {
    /// The calibration in use before, or nil with ``uncalibratedReason``.
    var calibration: Calibration?
    var uncalibratedReason: String?
    /// The zero and tare, judged on the first stable reading (``SensorChannel/restore(_:)``).
    var zeroTare: ZeroTareState?
    /// Why the saved zero and tare could not be read, for the log.
    var zeroTareProblem: String?

    /// Reads `sensor`'s calibration and its zero and tare from the stores.
    static func load(
        _ sensor: SensorConfiguration, calibrations: CalibrationStore, zeroTares: ZeroTareStore
    ) -> SavedSensorState {
        var saved = SavedSensorState()
        switch calibrations.load(sensor.identity) {
        case .success(let stored?): saved.calibration = stored
        case .success(nil): saved.uncalibratedReason = "not calibrated yet: plumscale calibrate --sensor \(sensor.name)"
        case .failure(let error): saved.uncalibratedReason = error.description
        }
        switch zeroTares.load(sensor.identity) {
        case .success(let state): saved.zeroTare = state
        case .failure(let error): saved.zeroTareProblem = "\(sensor.name): saved zero and tare not used: \(error)"
        }
        return saved
    }
}

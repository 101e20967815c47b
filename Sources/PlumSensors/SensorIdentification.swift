package import PlumCore
package import PlumDaemonConfig

/// What the weighing engine and the calibration store know a configured sensor by.
///
/// One place maps a `[[sensor]]` table to its identity and its engine kind, so a new source
/// kind is added here, next to how it is opened (``SensorFactory``).
extension SensorConfiguration {
    /// The engine's identity for this sensor: its name, driver and gain or channel. A stored
    /// calibration is for one identity: a different gain or channel needs a new one.
    package var identity: SensorIdentity {
        switch wiring {
        case .hx711(let wiring):
            SensorIdentity(id: name, model: "hx711", gain: wiring.driver.gain.gain)
        case .simulatedHX711(let wiring):
            SensorIdentity(id: name, model: "simulated-hx711", gain: wiring.driver.gain.gain)
        case .ads1115(let wiring):
            SensorIdentity(id: name, model: "ads1115", channel: wiring.config.mux.description)
        case .iio, .simulatedFSR, .replay:
            SensorIdentity(id: name, model: kind.rawValue)
        }
    }

    /// The engine's sensor kind: FSRs are fitted in the conductance domain; everything else is
    /// linear in its signal.
    package var sensorKind: SensorKind {
        switch wiring {
        case .ads1115(let wiring) where wiring.divider != nil: .fsr
        case .simulatedFSR: .fsr
        case .hx711, .ads1115, .iio, .simulatedHX711, .replay: .loadCell
        }
    }
}

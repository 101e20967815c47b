import ArgumentParser
import PlumDrivers
import PlumHardware

/// Turns a driver failure into the plain words a person at the bench needs: which of
/// "no permission", "no such chip", "wrong pin" or "no chip answering" it is, then the detail.
enum Diagnosis {
    static func explain(_ error: any Error) -> String {
        guard let error = error as? SensorError else { return "\(error)" }
        switch error {
        case .notReady:
            return "no chip answering: \(error)"
        case .endOfData:
            return "\(error)"
        case .hardware(let sensor, let hardware):
            return "\(category(hardware)): \(sensor): \(hardware)"
        }
    }

    static func category(_ error: HardwareError) -> String {
        switch error.errno {
        case Errno.permissionDenied?, Errno.operationNotPermitted?: return "no permission"
        case Errno.noSuchDeviceOrAddress?, Errno.remoteIOError?: return "no chip answering"
        case Errno.deviceBusy?: return "line or bus busy"
        default: break
        }
        switch error.code {
        case .notFound where error.subject.contains("line"): return "wrong pin"
        case .notFound: return "no such device"
        case .malformed: return "unexpected data"
        case .timedOut: return "no chip answering"
        default: return "hardware error"
        }
    }

    static func exitCode(for error: any Error) -> ExitCode {
        if case .notReady? = error as? SensorError { return ExitStatus.notReady }
        return ExitStatus.hardware
    }
}

import PlumCore
import PlumStore

#if canImport(Glibc)
    import Glibc
#endif

// A child process for the kill -9 test: saves zero and tare states 1, 2, 3, … for sensor
// `left` at gain 128 in DIRECTORY as fast as it can, forever, printing `saved N` once save N
// has returned. State N has a zero offset of N/1000 g and a tare of N g, so a half-written or
// mixed state shows at once.
/// Writes a line straight to a descriptor: no stdio buffer for the kill to lose.
func emit(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    emit("usage: plumstore-state-writer DIRECTORY", to: 2)
    exit(64)
}
let store = ZeroTareStore(directory: arguments[1])
let sensor = SensorIdentity(id: "left", model: "hx711", gain: 128)
let calibration = CalibrationReference(
    sensor: sensor.fileStem, createdAt: "2026-05-01T09:30:00Z",
    model: .polynomial(offset: 8013.23, scale: 419.9873, curvature: 0))
var count = 0
while true {
    count += 1
    let state = ZeroTareState(
        sensor: sensor.fileStem, calibration: calibration, zeroOffset: Double(count) / 1000, tare: Double(count))
    if case .failure(let error) = store.save(state, for: sensor) {
        emit("\(error)", to: 2)
        exit(1)
    }
    emit("saved \(count)", to: 1)
}

import PlumProtocol
import Testing

@Suite("JSON protocol requests, written by a client")
struct RequestEncodingTests {
    static let requests: [Request] =
        [
            .poll, .devices, .version,
            .watch(WatchOptions()),
            .watch(WatchOptions(enable: false)),
            .watch(WatchOptions(sensors: ["left", "right \"quoted\""], raw: true)),
            .watch(WatchOptions(binary: true)),
            .watch(WatchOptions(sensors: ["left"], changes: true)),
            .tare(sensor: "left"),
            .zero(sensor: "pan\\2"),
            .calibrate(CalibrationRequest(sensor: "left", step: .point, grams: 100.25))
        ]
        + CalibrationRequest.Step.allCases.filter { $0 != .point }.map {
            .calibrate(CalibrationRequest(sensor: "left", step: $0))
        }

    @Test("every request a client writes parses back to the same request", arguments: requests)
    func roundTrips(request: Request) throws {
        let line = request.line
        #expect(!line.contains("\n"), "a request is one line, but \(request) was written as \(line)")
        let parsed = try Request.parse(line[...])
        #expect(parsed == request, "\(request) was written as \(line) and read back as \(parsed)")
    }

    @Test("the request line is the documented form")
    func documentedForm() {
        #expect(Request.tare(sensor: "left").line == #"?TARE={"sensor":"left"};"#)
        #expect(Request.watch(WatchOptions(sensors: ["left"])).line == #"?WATCH={"enable":true,"sensors":["left"]};"#)
        #expect(Request.poll.line == "?POLL;")
    }
}

import PlumClient
import PlumProtocol
import Testing

/// Each request's answer, declared once: what its matcher takes from the reports that come back.
@Suite("DaemonCall: one request and its answer's matcher")
struct DaemonCallTests {
    static func report(_ line: String) throws -> Report { try Report.decode(Substring(line)) }

    @Test("a tare takes the TARE reply of its own sensor, not another sensor's, a ZERO or a streamed WEIGHT")
    func tareMatchesItsOwnReply() throws {
        let call = DaemonCall.tare(sensor: "left")
        #expect(call.request.line == Request.tare(sensor: "left").line)
        let own = try Self.report(#"{"class":"TARE","sensor":"left","ok":true,"tare":12.5}"#)
        let other = try Self.report(#"{"class":"TARE","sensor":"right","ok":true,"tare":3}"#)
        let zero = try Self.report(#"{"class":"ZERO","sensor":"left","ok":true}"#)
        #expect(call.answer(own)?.tare == 12.5)
        #expect(call.answer(other) == nil && call.answer(zero) == nil)
        #expect(call.timeout == .seconds(10) && call.repeatable)
    }

    @Test("a calibration step waits 60 s for a stable load and is never sent twice; its reply must be of its step")
    func calibrationIsNotRepeatable() throws {
        let call = DaemonCall.calibrate(CalibrationRequest(sensor: "right", step: .fit))
        #expect(!call.repeatable && call.timeout == .seconds(60))
        let fit = try Self.report(
            #"{"class":"CALIBRATE","sensor":"right","step":"fit","ok":true,"points":2,"grams":[0,100],"#
                + #""residuals":[0.001,-0.001],"quality":"good"}"#)
        let begin = try Self.report(#"{"class":"CALIBRATE","sensor":"right","step":"begin","ok":true,"points":0}"#)
        #expect(call.answer(fit)?.quality == "good")
        #expect(call.answer(begin) == nil, "the reply of another step is not this call's answer")
    }

    @Test("a timeout given at the call site replaces the call's own; nil keeps it")
    func timeoutOverride() {
        #expect(DaemonCall.poll.timeout(.seconds(2)).timeout == .seconds(2))
        #expect(DaemonCall.zero(sensor: "left").timeout(nil).timeout == .seconds(10))
    }
}

internal import PlumCore
internal import PlumProtocol

/// The replies of everything that waits on a sensor's readings: MT-SICS `S`, `Z`, `T`
/// waiting for a stable one, `SI` after a zero or tare waiting for the next one, `SIR`
/// following all of them (a nil for a sensor that stopped delivering), and a calibration's
/// capture.
///
/// Owned by the station, so a wait is answered in the same actor turn as the reading that
/// decides it; each wait has a token by which a time-out or a cancellation ends it. What a
/// stable wait or a capture waits for is the sensor's channel's to decide (``SensorChannel``):
/// this only keeps the continuations, by token.
struct WaitRegistry {
    private var stable: [UInt64: (sensor: String, reply: CheckedContinuation<WeighingOutcome, Never>)] = [:]
    private var captures: [UInt64: CheckedContinuation<[Report], Never>] = [:]
    private var streams: [UInt64: (sensor: String, continuation: AsyncStream<Reading?>.Continuation)] = [:]
    private var next: [UInt64: (sensor: String, reply: CheckedContinuation<Reading?, Never>)] = [:]
    private var lastToken: UInt64 = 0

    /// Some command waits for a stable reading.
    var isWaitingForStable: Bool { !stable.isEmpty }
    /// True while a request waits for the next reading (the tests' signal that it has begun).
    var isWaitingForNext: Bool { !next.isEmpty }

    /// A fresh token for a wait or a capture.
    mutating func newToken() -> UInt64 {
        lastToken &+= 1
        return lastToken
    }

    mutating func waitForStable(_ token: UInt64, sensor: String, _ reply: CheckedContinuation<WeighingOutcome, Never>) {
        stable[token] = (sensor, reply)
    }
    mutating func waitForCapture(_ token: UInt64, _ reply: CheckedContinuation<[Report], Never>) {
        captures[token] = reply
    }
    mutating func waitForNext(_ token: UInt64, sensor: String, _ reply: CheckedContinuation<Reading?, Never>) {
        next[token] = (sensor, reply)
    }
    mutating func follow(_ token: UInt64, sensor: String, _ continuation: AsyncStream<Reading?>.Continuation) {
        streams[token] = (sensor, continuation)
    }

    /// Hands `reading` of `sensor` to the waits for its next reading, which end, and to its
    /// followers.
    mutating func serve(_ sensor: String, _ reading: Reading) {
        for (token, waiter) in next where waiter.sensor == sensor {
            next[token] = nil
            waiter.reply.resume(returning: reading)
        }
        for (_, stream) in streams where stream.sensor == sensor {
            stream.continuation.yield(reading)
        }
    }

    /// `sensor` stopped delivering: the waits for its next reading end with none, and the
    /// followers are told (nil).
    mutating func interrupt(_ sensor: String) {
        for (token, waiter) in next where waiter.sensor == sensor {
            next[token] = nil
            waiter.reply.resume(returning: nil)
        }
        for (_, stream) in streams where stream.sensor == sensor {
            stream.continuation.yield(nil)
        }
    }

    /// Answers what a sample or state of `sensor` decided (``SensorChannel/Outputs``): a
    /// capture, the waits for the next reading and the followers, then the stable waits.
    mutating func answer(_ outputs: SensorChannel.Outputs, sensor: String) {
        if let capture = outputs.capture { resumeCapture(capture.token, capture.reply) }
        if let reading = outputs.reading {
            serve(sensor, reading)
        } else if outputs.interrupted {
            interrupt(sensor)
        }
        for resume in outputs.resumes { resumeStable(resume.token, resume.outcome) }
    }

    /// The sensor the stable wait with `token` waits on, while it waits.
    func sensor(ofStableWait token: UInt64) -> String? { stable[token]?.sensor }

    /// Answers the stable wait with `token`, if it still waits.
    mutating func resumeStable(_ token: UInt64, _ outcome: WeighingOutcome) {
        stable.removeValue(forKey: token)?.reply.resume(returning: outcome)
    }

    /// Answers the capture with `token`, if it still waits.
    mutating func resumeCapture(_ token: UInt64, _ reply: [Report]) {
        captures.removeValue(forKey: token)?.resume(returning: reply)
    }

    /// Removes the wait for the next reading with `token`, if it still waits.
    mutating func endNextWait(_ token: UInt64) -> (sensor: String, reply: CheckedContinuation<Reading?, Never>)? {
        next.removeValue(forKey: token)
    }

    mutating func stopFollowing(_ token: UInt64) { streams[token] = nil }
}

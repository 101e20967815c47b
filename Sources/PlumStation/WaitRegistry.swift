internal import PlumCore

/// Everything that waits on a sensor's readings: MT-SICS `S`, `Z`, `T` waiting for a stable
/// one, `SI` after a zero or tare waiting for the next one, and `SIR` following all of them
/// (a nil for a sensor that stopped delivering).
///
/// Owned by the station, so a wait is decided in the same actor turn as the reading that
/// decides it; each wait has a token by which a time-out or a cancellation ends it.
struct WaitRegistry {
    /// A command waiting for a stable reading of one sensor.
    struct StableWaiter {
        let sensor: String
        let action: WeighingAction
        var wait: StableWait
        let reply: CheckedContinuation<WeighingOutcome, Never>
    }

    private var stable: [UInt64: StableWaiter] = [:]
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

    mutating func waitForStable(_ token: UInt64, _ waiter: StableWaiter) { stable[token] = waiter }
    mutating func waitForNext(_ token: UInt64, sensor: String, _ reply: CheckedContinuation<Reading?, Never>) {
        next[token] = (sensor, reply)
    }
    mutating func follow(_ token: UInt64, sensor: String, _ continuation: AsyncStream<Reading?>.Continuation) {
        streams[token] = (sensor, continuation)
    }

    /// Hands `reading` of `sensor` to every wait on it: the waits for the next reading end, the
    /// followers get it, and each stable wait it decides is removed and returned with what the
    /// reading decided (stable, or timed out with the last reading).
    mutating func serve(_ sensor: String, _ reading: Reading) -> [(StableWaiter, StableWait.Outcome)] {
        for (token, waiter) in next where waiter.sensor == sensor {
            next[token] = nil
            waiter.reply.resume(returning: reading)
        }
        for (_, stream) in streams where stream.sensor == sensor {
            stream.continuation.yield(reading)
        }
        var decided: [(StableWaiter, StableWait.Outcome)] = []
        for (token, var waiter) in stable where waiter.sensor == sensor {
            if let outcome = waiter.wait.consume(reading) {
                stable[token] = nil
                decided.append((waiter, outcome))
            } else {
                stable[token] = waiter
            }
        }
        return decided
    }

    /// `sensor` stopped delivering: the waits for its next reading end with none, the
    /// followers are told (nil), and every stable wait on it is removed and returned, to be
    /// answered with the outage.
    mutating func interrupt(_ sensor: String) -> [(StableWaiter, Void)] {
        for (token, waiter) in next where waiter.sensor == sensor {
            next[token] = nil
            waiter.reply.resume(returning: nil)
        }
        for (_, stream) in streams where stream.sensor == sensor {
            stream.continuation.yield(nil)
        }
        var ended: [(StableWaiter, Void)] = []
        for (token, waiter) in stable where waiter.sensor == sensor {
            stable[token] = nil
            ended.append((waiter, ()))
        }
        return ended
    }

    /// Removes the stable wait with `token`, if it still waits.
    mutating func endStableWait(_ token: UInt64) -> StableWaiter? { stable.removeValue(forKey: token) }

    /// Removes the wait for the next reading with `token`, if it still waits.
    mutating func endNextWait(_ token: UInt64) -> (sensor: String, reply: CheckedContinuation<Reading?, Never>)? {
        next.removeValue(forKey: token)
    }

    mutating func stopFollowing(_ token: UInt64) { streams[token] = nil }
}

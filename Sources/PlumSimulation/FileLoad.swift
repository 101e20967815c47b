public import PlumHardware
internal import PlumSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The load on a simulated pan is whatever number of grams a file holds: write `100` into it to
/// place a 100 g weight, `0` to take it off.
///
/// For trying the calibration wizard without hardware and for end-to-end tests that place
/// weights when they choose. The file is read at most every 20 ms; a missing or unreadable
/// file, or text that is not a number, keeps the last good load (0 g at first), because a
/// writer replacing the file must never make the pan jump.
public final class FileLoad: LoadProfile, Sendable {
    public let path: String
    private let cache = Mutex<(grams: Double, readAt: UInt64?)>((0, nil))
    private static let interval: UInt64 = 20_000_000

    public init(path: String) {
        self.path = path
    }

    public func grams(at time: MonotonicInstant) -> Double {
        cache.withLock { cache in
            if let readAt = cache.readAt, time.nanoseconds &- readAt < Self.interval, time.nanoseconds >= readAt {
                return cache.grams
            }
            cache.readAt = time.nanoseconds
            if let grams = Self.read(path) { cache.grams = grams }
            return cache.grams
        }
    }

    /// The number in the file, or nil when there is none to read.
    static func read(_ path: String) -> Double? {
        // A number and a newline; a larger file is no load.
        guard case .success(let bytes?) = Syscalls.readWholeFile(path, limit: 64) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        guard let grams = Double(text), grams.isFinite, grams >= 0, grams <= 100_000 else { return nil }
        return grams
    }
}

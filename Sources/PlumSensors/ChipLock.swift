package import PlumDrivers
import Synchronization

/// One lock per physical chip that several sensors share (four FSRs on one ADS1115), so
/// their sampler threads take turns: each conversion sets the chip's MUX, and a conversion
/// started for one channel must not be read back by another.
package final class ChipLock: Sendable {
    private let mutex = Mutex<Void>(())

    private static let registry = Mutex<[String: ChipLock]>([:])

    /// The lock of the chip called `key` (such as "1@0x48"), made on first use.
    package static func shared(_ key: String) -> ChipLock {
        registry.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = ChipLock()
            locks[key] = lock
            return lock
        }
    }

    package func withLock<T>(_ body: () throws(SensorError) -> T) throws(SensorError) -> T {
        try mutex.withLock { _ throws(SensorError) in try body() }
    }
}

package import PlumDaemonConfig
import PlumHardware

extension SamplerSettings {
    /// The sampler thread's timer slack in nanoseconds.
    package static let timerSlack: UInt = 1_000

    /// Applies the settings to the calling thread (the sensor's sampler) and the process.
    ///
    /// A refusal does not stop the sensor: it runs at normal priority, and the returned notes
    /// say what was refused and how to permit it.
    /// - Returns: one note per setting applied or refused, and one if the thread's timer slack
    ///   (``timerSlack``, always set) was refused.
    package func apply() -> [String] {
        var notes: [String] = []
        // The sampler's timed waits are the hardware's deadlines; the default slack would let
        // each end up to 50 µs late (an ADS1115 conversion polled without ALERT, a simulated
        // chip's edge). SCHED_FIFO, below, needs none, but a refused priority still gets this.
        do {
            try RealTime.setTimerSlack(nanoseconds: Self.timerSlack)
        } catch {
            notes.append("timer slack not set, timed waits may end up to 50 µs late: \(error)")
        }
        if let priority = realtimePriority {
            do {
                try RealTime.setFIFOPriority(Int32(priority))
                notes.append("sampler runs at real-time priority \(priority) (SCHED_FIFO)")
            } catch {
                notes.append("real-time priority \(priority) not applied, running at normal priority: \(error)")
            }
        }
        if lockMemory {
            do {
                try RealTime.lockMemory()
                notes.append("memory locked (mlockall)")
            } catch {
                notes.append("memory not locked: \(error)")
            }
        }
        return notes
    }
}

public import PlumConfig
import PlumHardware

extension SamplerSettings {
    /// Applies the settings to the calling thread (the sensor's sampler) and the process.
    ///
    /// A refusal does not stop the sensor: it runs at normal priority, and the returned notes
    /// say what was refused and how to permit it.
    /// - Returns: one note per setting applied or refused.
    public func apply() -> [String] {
        var notes: [String] = []
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

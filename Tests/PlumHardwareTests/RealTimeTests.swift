import PlumHardware
import PlumTestSupport
import Testing

/// Whether these succeed depends on the privileges of whoever runs the tests (root in a
/// container may still lack CAP_SYS_NICE). Both outcomes are accepted, and each outcome's
/// contract is checked.
@Suite("Real-time scheduling and memory locking", .serialized)
struct RealTimeTests {
    @Test("SCHED_FIFO either takes effect, or fails with EPERM saying which capability and limit to grant")
    func fifoPriority() throws {
        defer { try? RealTime.setNormalPriority() }
        do {
            try RealTime.setFIFOPriority(10)
            #expect(try RealTime.currentPolicy() == .fifo(priority: 10))
            try RealTime.setNormalPriority()
            #expect(try RealTime.currentPolicy() == .normal)
        } catch {
            #expect(error.errno == .operationNotPermitted)
            #expect(error.hint?.contains("CAP_SYS_NICE") == true)
            #expect(error.hint?.contains("LimitRTPRIO=") == true)
            #expect(error.hint?.contains("root") == true)
            #expect(try RealTime.currentPolicy() == .normal)
        }
    }

    @Test("a priority outside 1…99 is refused before the kernel is asked", arguments: [0, 100, -5] as [Int32])
    func invalidPriority(_ priority: Int32) {
        let error = #expect(throws: HardwareError.self) { try RealTime.setFIFOPriority(priority) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.detail == "outside 1…99")
    }

    @Test("a thread's timer slack is set to the nanosecond, read back, and restored to what it started with")
    func timerSlack() throws {
        let (before, set, restored) = try onThreadOfItsOwn {
            let before = try RealTime.timerSlack()
            try RealTime.setTimerSlack(nanoseconds: 1_000)
            let set = try RealTime.timerSlack()
            try RealTime.setTimerSlack(nanoseconds: 0)
            return (before, set, try RealTime.timerSlack())
        }
        #expect(set == 1_000)
        #expect(restored == before, "0 restores the slack the thread inherited")
        #expect(before > 0, "an ordinary thread has slack (50 µs by default)")
    }

    @Test("mlockall either succeeds and can be undone, or fails saying which capability or limit to raise")
    func lockMemory() throws {
        do {
            try RealTime.lockMemory()
            try RealTime.unlockMemory()
        } catch {
            #expect(error.errno == .operationNotPermitted || error.errno == Errno(rawValue: 12))  // ENOMEM
            #expect(error.hint?.contains("LimitMEMLOCK") == true)
        }
    }
}

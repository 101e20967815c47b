import PlumDaemonConfig
import PlumHardware
import PlumSensors
import PlumTestSupport
import Testing

@Suite("A sampler thread's scheduling")
struct SamplerSchedulingTests {
    @Test("a sampler thread's timed waits may end at most a microsecond late, not the default 50 µs, with no note")
    func samplerAsksForLittleTimerSlack() throws {
        let (slack, notes) = try onThreadOfItsOwn {
            let notes = SamplerSettings().apply()
            return (try RealTime.timerSlack(), notes)
        }
        #expect(slack == 1_000)
        #expect(notes.isEmpty, "only what the configuration asked for, or a refusal, is noted: \(notes)")
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// A process the benchmark started: its CPU time and memory from /proc, and its end.
struct ProcessStats {
    let pid: pid_t

    /// CPU seconds (user + system) the process has used.
    var cpuSeconds: Double {
        guard let stat = DaemonUnderTest.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else {
            return .nan
        }
        // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The same, to the nanosecond: the process's CPU-time clock (clock_getcpuclockid(3)), where
    /// /proc counts in clock ticks of 10 ms, too coarse for a few reports a second.
    var preciseCPUSeconds: Double {
        var clock = clockid_t()
        var time = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 else { return cpuSeconds }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A field of /proc/<pid>/status in MiB, such as "VmRSS" or "VmHWM" (the peak).
    func memory(_ field: String) -> Double {
        guard let status = DaemonUnderTest.read("/proc/\(pid)/status") else { return .nan }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap {
                Double($0)
            }
            return (kilobytes ?? .nan) / 1024
        }
        return .nan
    }

    /// SIGTERM, and waits for it; nothing when it has already been reaped.
    func terminate() {
        guard kill(pid, 0) == 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

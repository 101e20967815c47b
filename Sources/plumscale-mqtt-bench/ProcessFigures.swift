import Foundation

/// What /proc says about a running process's CPU time and memory: the bridge's cost, which the
/// benchmark prints.
struct ProcessFigures {
    let pid: pid_t

    /// User plus system CPU seconds so far (/proc/<pid>/stat fields 14 and 15).
    var cpuSeconds: Double {
        let text = Self.read("/proc/\(pid)/stat")
        guard let close = text.lastIndex(of: ")") else { return .nan }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `VmRSS:`/`VmHWM:` line of /proc/<pid>/status, in MiB.
    func memory(_ field: String) -> Double {
        for line in Self.read("/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix(field + ":") {
            if let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return kib / 1024 }
        }
        return .nan
    }

    /// A /proc file read to its end (`stat` says its size is 0, so only reading to EOF works).
    static func read(_ path: String) -> String {
        guard let file = FileHandle(forReadingAtPath: path), let bytes = try? file.readToEnd() else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}

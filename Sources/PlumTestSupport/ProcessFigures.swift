#if canImport(Glibc)
    import Glibc
#endif

/// What /proc says about a process: its CPU time so far and its memory, as the benchmarks of
/// the MQTT bridge and the web server print them.
package struct ProcessFigures: Sendable {
    package let pid: pid_t

    package init(pid: pid_t) { self.pid = pid }

    /// User plus system CPU seconds so far (/proc/<pid>/stat fields 14 and 15).
    package var cpuSeconds: Double {
        let text = Self.read("/proc/\(pid)/stat")
        guard let close = text.lastIndex(of: ")") else { return .nan }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `VmRSS:`/`VmHWM:` line of /proc/<pid>/status, in MiB.
    package func memory(_ field: String) -> Double {
        for line in Self.read("/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix(field + ":") {
            if let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return kib / 1024 }
        }
        return .nan
    }

    /// A /proc file read to its end (`stat` says its size is 0, so only reading to EOF works).
    static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes.append(contentsOf: buffer[0..<count])
            if count < buffer.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

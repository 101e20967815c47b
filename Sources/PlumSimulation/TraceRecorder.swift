public import PlumDrivers
internal import PlumHardware

#if canImport(Glibc)
    import Glibc
#endif

/// Writes samples as a trace (`time_s,sensor,raw` CSV) that ``TraceReplay`` plays back and any
/// spreadsheet opens.
///
/// Lines are flushed as they are written, so a trace cut short by Ctrl-C or a power cut keeps
/// every sample written before it.
public final class TraceRecorder {
    public static let columns = ["time_s", "sensor", "raw"]

    public let path: String
    private var file: UnsafeMutablePointer<FILE>?

    /// Creates (or truncates) `path` and writes the header.
    /// - Throws: a message naming the file and the reason.
    public init(path: String) throws(TraceRecorderError) {
        self.path = path
        guard let file = fopen(path, "w") else {
            throw TraceRecorderError(path: path, reason: Errno.current.description)
        }
        self.file = file
        try write(Self.columns.joined(separator: ","))
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Appends one sample: seconds on the monotonic clock (microsecond resolution), the sensor's
    /// name and the raw code.
    public func record(_ sample: Sample, sensor: String) throws(TraceRecorderError) {
        let micros = sample.time.nanoseconds / 1000
        let seconds = "\(micros / 1_000_000).\(String(micros % 1_000_000).leftPadded(to: 6))"
        try write("\(seconds),\(sensor),\(sample.raw)")
    }

    /// Flushes and closes the file; later records fail.
    public func close() throws(TraceRecorderError) {
        guard let file else { return }
        self.file = nil
        if fclose(file) != 0 {
            throw TraceRecorderError(path: path, reason: Errno.current.description)
        }
    }

    private func write(_ line: String) throws(TraceRecorderError) {
        guard let file else { throw TraceRecorderError(path: path, reason: "already closed") }
        if fputs(line + "\n", file) < 0 || fflush(file) != 0 {
            throw TraceRecorderError(path: path, reason: Errno.current.description)
        }
    }
}

/// A trace could not be written.
public struct TraceRecorderError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "writing trace \(path): \(reason)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

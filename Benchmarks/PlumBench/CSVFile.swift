internal import PlumHardware

#if canImport(Glibc)
    import Glibc
#endif

/// Writes small text files for the benchmark's outputs.
enum CSVFile {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "writing \(path): \(reason)" }
    }

    static func write(_ text: String, to path: String) throws(WriteError) {
        guard let file = fopen(path, "w") else {
            throw WriteError(path: path, reason: Errno.current.description)
        }
        defer { fclose(file) }
        if fputs(text, file) < 0 { throw WriteError(path: path, reason: Errno.current.description) }
    }
}

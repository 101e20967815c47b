internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale.toml` as a file: where it lives and how its text is read, the same way by every
/// service that reads it (plumscaled, plumscale-mqtt, plumscale-web, the CLI).
package enum ConfigurationFile {
    /// The default location on a Pi.
    package static let defaultPath = "/etc/plumscale/plumscale.toml"

    /// The file's whole text; an error naming the file and why it cannot be read otherwise.
    package static func text(at path: String) throws(ConfigurationError) -> String {
        do {
            return try readTextFile(path)
        } catch {
            throw ConfigurationError(file: path, key: "", message: error.message)
        }
    }

    /// The file's text, or nil when there is no file at `path` (a service that runs on its
    /// defaults without one); any other failure is an error as for ``text(at:)``.
    package static func textIfPresent(at path: String) throws(ConfigurationError) -> String? {
        do {
            return try readTextFile(path)
        } catch  where error.code == ENOENT {
            return nil
        } catch {
            throw ConfigurationError(file: path, key: "", message: error.message)
        }
    }
}

/// A file's whole text, or an error message naming why it could not be read.
private struct ReadFailure: Error {
    var message: String
    /// The errno of a failed open, else 0.
    var code: Int32 = 0
}

private func readTextFile(_ path: String) throws(ReadFailure) -> String {
    guard let file = fopen(path, "r") else {
        let code = errno
        let reason = Errno(rawValue: code).description
        switch code {
        case ENOENT:
            throw ReadFailure(
                message:
                    "cannot open: \(reason); create it from an example in Calibration/examples, or pass --config PATH",
                code: code)
        case EACCES:
            throw ReadFailure(
                message:
                    "cannot open: \(reason); check the file's permissions (the service's user must be able to read it)",
                code: code)
        default:
            throw ReadFailure(message: "cannot open: \(reason)", code: code)
        }
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
        if count < buffer.count {
            if ferror(file) != 0 { throw ReadFailure(message: "cannot read: \(Errno.current)") }
            break
        }
        if bytes.count > 1 << 20 { throw ReadFailure(message: "larger than 1 MiB: this is not a configuration file") }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ReadFailure(message: "not UTF-8 text")
    }
    return text
}

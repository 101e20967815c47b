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
    let bytes: [UInt8]
    switch Syscalls.readWholeFile(path, limit: 1 << 20) {
    case .success(let read?):
        bytes = read
    case .success(nil):
        throw ReadFailure(
            message: "cannot open: \(Errno.noSuchFileOrDirectory); create it from an example in Calibration/examples, "
                + "or pass --config PATH",
            code: ENOENT)
    case .failure(.permissionDenied):
        throw ReadFailure(
            message: "cannot open: \(Errno.permissionDenied); check the file's permissions (the service's user must "
                + "be able to read it)",
            code: EACCES)
    case .failure(.fileTooLarge):
        throw ReadFailure(message: "larger than 1 MiB: this is not a configuration file")
    case .failure(let error):
        throw ReadFailure(message: "cannot read: \(error)", code: error.rawValue)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ReadFailure(message: "not UTF-8 text")
    }
    return text
}

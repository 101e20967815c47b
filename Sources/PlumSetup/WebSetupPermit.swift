import Foundation
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Root's leave for the web page to set up a scale that is set up already.
///
/// The page's first run is for a scale with no configuration of setup's. Once there is one,
/// `plumscale setup --serve` answers only `state`: a stolen cookie or one web password must not
/// be enough to rewrite the sensors as root. To set it up again from the page, root runs
/// `sudo plumscale setup --allow-web`, which leaves this file beside the configuration. It
/// counts for ``lifetime`` from when it was written, only as a regular file (not a link) owned
/// by root (or by the user the server runs as, for tests and files of one's own), and one apply
/// uses it up.
package struct WebSetupPermit {
    /// The file's name, in the configuration's directory.
    static let name = "web-setup-allowed"
    /// How long after it is written the leave counts, in seconds.
    package static let lifetime: Double = 3600

    /// The file: `web-setup-allowed` beside `configPath`.
    package var path: String

    package init(configPath: String) {
        let directory = SetupFile(path: configPath).directory
        path = (directory == "/" ? "" : directory) + "/" + Self.name
    }

    /// What the file says now.
    enum Leave: Equatable {
        /// A valid leave, until that time (seconds since the epoch).
        case granted(until: Double)
        /// No file.
        case absent
        /// A file that does not count, and why.
        case void(String)
    }

    /// Whether the leave counts at `now` (seconds since the epoch), trusting files of `owners`.
    func leave(now: Double, owners: Set<UInt32>) -> Leave {
        let status: LinkStatus
        switch Syscalls.linkStatus(path) {
        case .success(let value): status = value
        case .failure(.noSuchFileOrDirectory): return .absent
        case .failure(let error): return .void("\(path): lstat: \(error)")
        }
        guard status.isRegularFile else { return .void("\(path) is not a regular file") }
        guard owners.contains(status.owner) else {
            return .void("\(path) is owned by uid \(status.owner), not root")
        }
        guard status.permissions & 0o022 == 0 else {
            return .void("\(path) may be written by others (mode \(String(status.permissions, radix: 8)))")
        }
        let until = status.modified + Self.lifetime
        guard now < until, status.modified <= now + 60 else {
            return .void("\(path) was written more than \(Int(Self.lifetime / 60)) minutes ago")
        }
        return .granted(until: until)
    }

    /// Writes the file (mode 0600, atomically); the leave counts from now.
    package func grant() throws(SetupFile.WriteError) {
        try SetupFile(path: path).write(
            "# Left by `plumscale setup --allow-web`: the web page may set this scale up again, once,\n"
                + "# within \(Int(Self.lifetime / 60)) minutes of this file's time. Delete it to take the leave back.\n",
            mode: 0o600)
    }

    /// Removes the file: the leave is used up.
    func revoke() { _ = Syscalls.removeFile(path) }
}

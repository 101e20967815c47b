package import PlumSystem

/// Where a simulated panel's image goes after every refresh: written to a temporary file and
/// renamed, so a reader (a test, `plumscale demo --display`) never sees half a frame. Not
/// synced: it is a picture of the moment, kept in /run, and a power cut loses nothing of value.
package struct FrameFile: Sendable {
    package let path: String

    package init(path: String) { self.path = path }

    /// Replaces the file with `text`; a failure is returned, to be logged once by the caller.
    package func write(_ text: String) -> Errno? {
        let temporary = path + ".tmp"
        _ = Syscalls.removeFile(temporary)
        if case .failure(let errno) = Syscalls.createNewFile(temporary, Array(text.utf8), mode: 0o644) { return errno }
        if case .failure(let errno) = Syscalls.rename(temporary, path) { return errno }
        return nil
    }
}

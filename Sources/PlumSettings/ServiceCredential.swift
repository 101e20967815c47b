internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A secret systemd passed to the service with `LoadCredential=NAME:SOURCE`: a copy of SOURCE
/// at `$CREDENTIALS_DIRECTORY/NAME`, readable by the service's user alone, so the file in /etc
/// can stay root's (mode 0600) instead of being shared with the service's group.
///
/// systemd 252 (Debian 12) refuses to start a unit whose credential source is missing
/// (status 243/CREDENTIALS), so the units' sources always exist and an empty one means "not
/// set": the service then falls back to what its configuration names, as it did before there
/// were credentials.
package enum ServiceCredential {
    /// The name under which plumscale-web.service passes the bcrypt hash of the page's password.
    package static let webPassword = "web-password"
    /// The name under which plumscale-mqtt.service passes the broker password.
    package static let mqttPassword = "mqtt-password"

    /// `$CREDENTIALS_DIRECTORY`, which systemd sets for a unit that loads credentials; nil
    /// outside such a unit.
    package static var directory: String? {
        guard let value = getenv("CREDENTIALS_DIRECTORY") else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }

    /// The path of credential `name` in `directory` when it holds more than white space; nil when
    /// there is no such credential, or it is empty (not set). A credential that is there but
    /// cannot be read is returned too, so that whoever reads it reports why, rather than the
    /// service quietly falling back to its configuration.
    package static func path(_ name: String, in directory: String? = ServiceCredential.directory) -> String? {
        guard let directory else { return nil }
        let path = directory + "/" + name
        // A bcrypt hash or a password: a credential is a few hundred bytes at most.
        switch Syscalls.readWholeFile(path, limit: 64 << 10) {
        case .success(nil): return nil
        case .success(let bytes?):
            let isSet = bytes.contains { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
            return isSet ? path : nil
        case .failure: return path
        }
    }
}

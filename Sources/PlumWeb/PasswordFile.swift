import FoundationEssentials
import HummingbirdBcrypt

/// The file holding the bcrypt hash of the web password: one line, `$2b$12$…`, made by
/// `plumscale-web hash-password`. It is read at each login. Under systemd it is the unit's
/// credential `web-password`, a copy systemd makes at start of
/// /etc/plumscale/credentials/web-password: a new password there takes a restart.
package struct PasswordFile: Sendable {
    package let path: String

    package init(path: String) { self.path = path }

    /// Whether `password` matches the hash in the file.
    /// - Throws: ``WebError`` when the file is missing, unreadable or holds no bcrypt hash.
    package func verify(_ password: String) throws(WebError) -> Bool {
        Bcrypt.verify(password, hash: try hash())
    }

    /// The hash in the file.
    package func hash() throws(WebError) -> String {
        let text: String
        do {
            text = String(decoding: try Data(contentsOf: URL(filePath: path)), as: UTF8.self)
        } catch {
            throw WebError(
                "no password is set: cannot read \(path) (\(error.localizedDescription)); put the output of "
                    + "'plumscale-web hash-password' in \(Self.credentialSource) (install -m 600) and restart "
                    + "plumscale-web, or set [web] auth_file")
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let hash = line.split(separator: ":").last.map(String.init) ?? ""
        guard hash.hasPrefix("$2"), hash.count >= 59 else {
            throw WebError(
                "\(path) holds no bcrypt hash (expected one line such as $2b$12$…); "
                    + "make it with 'plumscale-web hash-password'")
        }
        return hash
    }

    /// Where plumscale-web.service loads its `web-password` credential from: root's alone (0600),
    /// empty until a password is set.
    package static let credentialSource = "/etc/plumscale/credentials/web-password"

    /// A bcrypt hash of `password` for the file.
    package static func makeHash(_ password: String, cost: UInt8 = 12) -> String {
        Bcrypt.hash(password, cost: cost)
    }
}

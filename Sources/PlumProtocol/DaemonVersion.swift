/// The release string the daemon reports in its `VERSION` line.
public enum DaemonVersion {
    /// The PlumScale release; the composer may report its own build instead.
    public static let release = "0.1.0"
}

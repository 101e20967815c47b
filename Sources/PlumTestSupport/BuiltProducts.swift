import Foundation

/// The package's built executables, found beside the running test bundle: SwiftPM puts every
/// product of a build in one folder (`.build/<triple>/debug`).
public enum BuiltProducts {
    /// The folder the test bundle runs from.
    public static let folder: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }()

    /// The built `plumscale` CLI.
    public static var plumscale: String { folder + "/plumscale" }
    /// The built `plumscaled` daemon.
    public static var plumscaled: String { folder + "/plumscaled" }
    /// The built `plumscale-mqtt` bridge.
    public static var plumscaleMQTT: String { folder + "/plumscale-mqtt" }
}

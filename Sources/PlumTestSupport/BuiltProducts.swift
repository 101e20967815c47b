import Foundation

/// The package's built executables, found beside the running test bundle: SwiftPM puts every
/// product of a build in one folder (`.build/<triple>/debug`).
package enum BuiltProducts {
    /// The folder the test bundle runs from.
    package static let folder: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }()

    /// The built `plumscale` CLI.
    package static var plumscale: String { folder + "/plumscale" }
    /// The built `plumscaled` daemon.
    package static var plumscaled: String { folder + "/plumscaled" }
    /// The built `plumscale-mqtt` bridge.
    package static var plumscaleMQTT: String { folder + "/plumscale-mqtt" }
    /// The built `plumscale-display` panel service.
    package static var plumscaleDisplay: String { folder + "/plumscale-display" }
}

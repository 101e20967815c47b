package import Testing

extension Tag {
    /// A suite that runs a real `plumscaled`, `plumscale` or service as a child process: the
    /// slowest tests, each run on threads of its own (`.ownThreads`).
    @Tag package static var process: Self
}

#if canImport(Glibc)
    import Glibc
#endif

/// What the instruction counts need from valgrind: where it is, and programs it can read.
enum Callgrind {
    /// Debian's valgrind, or nil when it is not installed.
    static var valgrind: String? {
        ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { access($0, X_OK) == 0 }
    }

    static let missing = "valgrind is not installed: sudo apt-get install valgrind, then run this again"

    /// Copies `program` to `copy` without its debug information: Debian 12's valgrind cannot
    /// read the DWARF 5 that Swift's toolchain writes, and the copy runs the same instructions.
    /// The caller removes the copy.
    static func copyWithoutDebugInformation(_ program: String, to copy: String) throws {
        guard system("cp '\(program)' '\(copy)' && strip --strip-debug '\(copy)'") == 0 else {
            throw BenchError("could not make a copy without debug information at \(copy) (strip is in binutils)")
        }
    }
}

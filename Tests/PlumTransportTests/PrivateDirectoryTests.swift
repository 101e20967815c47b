import PlumSystem
import PlumTestSupport
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The `/tmp/plumscale-<uid>` fallback sits in world-writable `/tmp`: another user could make it
/// first, or plant a symlink, and so receive every client's requests. The daemon binds there only
/// when the directory is its own and 0700.
@Suite("The per-user socket directory")
struct PrivateDirectoryTests {
    private func bind(in directory: String) throws(SystemError) {
        _ = try UnixSocketPath.prepareForBinding(directory + "/plumscale.sock", privateDirectory: directory)
    }

    @Test("an absent directory is created with mode 0700 and the socket may be bound there")
    func createdPrivate() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.file("plumscale-u")
        try bind(in: directory)
        var status = stat()
        #expect(lstat(directory, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o700)
        #expect(status.st_uid == getuid())
    }

    @Test("a directory others may enter is refused, naming it, its owner and mode, and the remedy")
    func wrongMode() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.file("plumscale-u")
        #expect(mkdir(directory, 0o700) == 0 && chmod(directory, 0o755) == 0)
        let error = #expect(throws: SystemError.self) { try bind(in: directory) }
        #expect(error?.code == .untrustedDirectory)
        #expect(
            error?.description
                == "binding in \(directory): its mode lets others in (owner uid \(getuid()), mode 0755); "
                + "it must be 0700; run 'chmod 700 \(directory)', or set XDG_RUNTIME_DIR or configure "
                + "another socket path")
    }

    @Test("a directory another user owns is refused even with mode 0700", .enabled(if: getuid() == 0))
    func otherOwner() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.file("plumscale-u")
        #expect(mkdir(directory, 0o700) == 0 && chown(directory, 4242, 4242) == 0)
        let error = #expect(throws: SystemError.self) { try bind(in: directory) }
        #expect(error?.code == .untrustedDirectory)
        #expect(error?.description.contains("it belongs to another user (owner uid 4242, mode 0700)") == true)
        #expect(error?.description.contains("have it removed") == true)
    }

    @Test("a symlink planted at the directory's name is refused, not followed")
    func symlink() throws {
        let parent = try TemporaryDirectory()
        let target = parent.file("elsewhere")
        #expect(mkdir(target, 0o700) == 0)
        let directory = parent.file("plumscale-u")
        #expect(Glibc.symlink(target, directory) == 0)
        let error = #expect(throws: SystemError.self) { try bind(in: directory) }
        #expect(error?.code == .untrustedDirectory)
        #expect(error?.description.contains("binding in \(directory): it is a symbolic link") == true)
        #expect(access(target + "/plumscale.sock", F_OK) != 0)
    }
}

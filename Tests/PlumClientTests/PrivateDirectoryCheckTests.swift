import PlumClient
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Another user may create `/tmp/plumscale-<uid>` first, or plant a symlink there, and listen
/// in it: the client must not send its requests to that socket.
@Suite("Refusing an untrusted per-user socket directory")
struct PrivateDirectoryCheckTests {
    private func check(_ directory: String) throws(ClientError) {
        try DaemonSocket.checkDirectory(of: directory + "/plumscale.sock", privateDirectory: directory)
    }

    @Test("a 0700 directory of this user passes, and so does one that is absent")
    func privateDirectory() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.file("plumscale-u")
        try check(directory)
        #expect(mkdir(directory, 0o700) == 0)
        try check(directory)
    }

    @Test("a directory others may enter is refused, naming it, its owner and mode, and the remedy")
    func wrongMode() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.file("plumscale-u")
        #expect(mkdir(directory, 0o700) == 0 && chmod(directory, 0o777) == 0)
        let error = #expect(throws: ClientError.self) { try check(directory) }
        #expect(error?.code == .permissionDenied)
        #expect(
            error?.message
                == "refusing to connect to \(directory)/plumscale.sock: \(directory) is not your private "
                + "directory, its mode lets others in (owner uid \(getuid()), mode 0777); it must be 0700; "
                + "run 'chmod 700 \(directory)', or set XDG_RUNTIME_DIR or pass --socket PATH.")
    }

    @Test("a directory another user owns is refused even with mode 0700", .enabled(if: getuid() == 0))
    func otherOwner() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.file("plumscale-u")
        #expect(mkdir(directory, 0o700) == 0 && chown(directory, 4242, 4242) == 0)
        let error = #expect(throws: ClientError.self) { try check(directory) }
        #expect(error?.message.contains("it belongs to another user (owner uid 4242, mode 0700)") == true)
    }

    @Test("a symlink planted at the directory's name is refused")
    func symlink() throws {
        let parent = try TemporaryDirectory()
        let target = parent.file("elsewhere")
        #expect(mkdir(target, 0o700) == 0)
        let directory = parent.file("plumscale-u")
        #expect(Glibc.symlink(target, directory) == 0)
        let error = #expect(throws: ClientError.self) { try check(directory) }
        #expect(error?.message.contains("\(directory) is not your private directory, it is a symbolic link") == true)
    }

    @Test("the per-user default is the directory checked")
    func defaultDirectory() throws {
        #expect(DaemonSocket.perUserDirectory(userID: 7) == "/tmp/plumscale-7")
        #expect(DaemonSocket.defaultCandidates(environment: [:], userID: 7).last == "/tmp/plumscale-7/plumscale.sock")
    }
}

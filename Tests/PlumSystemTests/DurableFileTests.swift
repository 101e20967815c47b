import PlumSystem
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one durable write every state file and every setup file goes through, on real files.
@Suite("A durable file replacement")
struct DurableFileTests {
    @Test(
        "a replacement writes the new bytes with exactly the mode asked for, whatever the umask, and leaves no temporary file"
    )
    func replacesWithMode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("plumscale.toml")
        try Syscalls.createNewFile(path, Array("old\n".utf8), mode: 0o644).get()
        let umask = Glibc.umask(0o077)
        defer { _ = Glibc.umask(umask) }
        try DurableFile(path: path, mode: 0o640).replace(with: Array("new\n".utf8)).get()
        #expect(try Syscalls.readWholeFile(path).get() == Array("new\n".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
        #expect(try Syscalls.listDirectory(directory.path).get() == ["plumscale.toml"])
    }

    @Test("keeping the previous file leaves it whole as PATH.prev beside the new one")
    func keepsPrevious() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("left-gain128.json")
        try DurableFile(path: path).replace(with: [1]).get()
        try DurableFile(path: path).replace(with: [2], keepPrevious: true).get()
        #expect(try Syscalls.readWholeFile(path).get() == [2])
        #expect(try Syscalls.readWholeFile(path + ".prev").get() == [1])
        #expect(
            try Syscalls.listDirectory(directory.path).get().sorted() == ["left-gain128.json", "left-gain128.json.prev"]
        )
    }

    @Test("a link planted at the temporary file's name is removed, not followed: its target is never written")
    func plantedLinkIsNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let victim = directory.file("shadow")
        try Syscalls.createNewFile(victim, Array("secret\n".utf8), mode: 0o600).get()
        let path = directory.file("plumscale.toml")
        #expect(symlink(victim, path + ".tmp") == 0)
        try DurableFile(path: path).replace(with: Array("new\n".utf8)).get()
        #expect(try Syscalls.readWholeFile(victim).get() == Array("secret\n".utf8))
        #expect(try Syscalls.readWholeFile(path).get() == Array("new\n".utf8))
    }

    @Test(
        "a step that fails before the rename names itself and its errno, keeps the old file, and removes the temporary one",
        arguments: [FailingFileSteps.Step.create, .syncFile, .rename])
    func failureBeforeRename(step: FailingFileSteps.Step) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("zero-tare.json")
        try DurableFile(path: path).replace(with: Array("old".utf8)).get()
        let file = DurableFile(path: path, steps: FailingFileSteps(failing: step, errno: .noSpace))
        let failure = try #require(throws: DurableFile.Failure.self) { try file.replace(with: Array("new".utf8)).get() }
        #expect(failure.errno == .noSpace && failure.errno.isNoSpace && !failure.replaced)
        let verb = ["create": "writing", "syncFile": "syncing", "rename": "renaming"][step.rawValue] ?? "?"
        #expect(failure.step.hasPrefix(verb) && failure.step.contains(path), "\(failure.step)")
        #expect(try Syscalls.readWholeFile(path).get() == Array("old".utf8))
        #expect(try Syscalls.listDirectory(directory.path).get() == ["zero-tare.json"])
    }

    @Test("a failed directory fsync says the new file is in place but not yet durable")
    func failedDirectorySync() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sessions.json")
        let file = DurableFile(path: path, steps: FailingFileSteps(failing: .syncDirectory, errno: .ioError))
        let failure = try #require(throws: DurableFile.Failure.self) { try file.replace(with: [7]).get() }
        #expect(failure.replaced && failure.step == "syncing directory \(directory.path)")
        #expect(try Syscalls.readWholeFile(path).get() == [7])
    }

    @Test("the directory of a path: a bare name is in '.', a file at the root in '/'")
    func directoryOfPath() {
        #expect(DurableFile.directory(of: "plumscale.toml") == ".")
        #expect(DurableFile.directory(of: "/plumscale.toml") == "/")
        #expect(DurableFile.directory(of: "/etc/plumscale/plumscale.toml") == "/etc/plumscale")
    }
}

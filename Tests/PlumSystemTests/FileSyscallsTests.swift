import PlumSystem
import PlumTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The calls the stores' durable writes are made of, on real files in a temporary directory.
@Suite("File system calls of a durable write")
struct FileSyscallsTests {
    @Test("a file written whole reads back byte for byte; a missing one reads as nil, not as an error")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state.json")
        #expect(try Syscalls.readWholeFile(path).get() == nil)
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }  // more than one read
        try Syscalls.createNewFile(path, bytes, mode: 0o644).get()
        #expect(try Syscalls.readWholeFile(path).get() == bytes)
        try Syscalls.createNewFile(path, [1, 2, 3], mode: 0o644).get()
        #expect(try Syscalls.readWholeFile(path).get() == [1, 2, 3], "a second create replaces the file")
    }

    @Test("a file larger than the limit is EFBIG rather than read into memory")
    func limit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("big")
        try Syscalls.createNewFile(path, [UInt8](repeating: 0, count: 5000), mode: 0o644).get()
        #expect(throws: Errno.fileTooLarge) { try Syscalls.readWholeFile(path, limit: 4096).get() }
    }

    @Test("temp, fsync, rename, directory fsync replaces the file; link keeps the old one under a second name")
    func replaceInPlace() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("calibration.json")
        try Syscalls.createNewFile(path, Array("old".utf8), mode: 0o644).get()
        try Syscalls.createNewFile(path + ".tmp", Array("new".utf8), mode: 0o644).get()
        try Syscalls.syncFile(path + ".tmp").get()
        try Syscalls.link(path, path + ".prev").get()
        try Syscalls.rename(path + ".tmp", path).get()
        try Syscalls.syncDirectory(directory.path).get()
        #expect(try Syscalls.readWholeFile(path).get() == Array("new".utf8))
        #expect(try Syscalls.readWholeFile(path + ".prev").get() == Array("old".utf8))
        let names = try Syscalls.listDirectory(directory.path).get().sorted()
        #expect(names == ["calibration.json", "calibration.json.prev"])
    }

    @Test("each call reports the errno that says what was wrong")
    func errors() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("plain")
        try Syscalls.createNewFile(file, [0], mode: 0o644).get()
        #expect(throws: Errno(rawValue: ENOTDIR)) { try Syscalls.syncDirectory(file).get() }
        #expect(throws: Errno.noSuchFileOrDirectory) { try Syscalls.rename(directory.file("absent"), file).get() }
        #expect(throws: Errno.fileExists) { try Syscalls.link(file, file).get() }
        #expect(throws: Errno.noSuchFileOrDirectory) { try Syscalls.listDirectory(directory.file("absent")).get() }
        try Syscalls.removeFile(directory.file("absent")).get()  // a missing file is no error
        try Syscalls.removeFile(file).get()
        #expect(try Syscalls.readWholeFile(file).get() == nil)
    }
}

/// The programs' own output and path checks, on a real pipe and real files.
@Suite("A program's output and path checks")
struct OutputSyscallsTests {
    @Test("bytes written to a pipe arrive whole, in order, more than the pipe holds at once included")
    func writesWholeToAPipe() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { Syscalls.closeFile(ends[0]) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }  // past a 64 KiB pipe
        // The writer blocks while the pipe is full, and the reader until bytes come: each on a
        // thread of its own, so neither holds one of the concurrency pool's few threads.
        let writeEnd = ends[1]
        let readEnd = ends[0]
        async let written = offPool {
            let result = Syscalls.writeWhole(bytes, to: writeEnd)
            Syscalls.closeFile(writeEnd)
            return result
        }
        let received = try await offPool {
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try Syscalls.readFile(readEnd, into: $0).get() }
                if count == 0 { return received }
                received += chunk[0..<count]
            }
        }
        #expect(try await written.get() == ())
        #expect(received == bytes)
    }

    @Test("a path that is there exists, one that is not does not; a file in a directory one may write is writable")
    func existsAndWritability() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("plumscale.toml", "[scale]\n")
        #expect(Syscalls.exists(path) && !Syscalls.exists(directory.file("absent")))
        #expect(Syscalls.writability(of: directory.path) == nil)
        #expect(Syscalls.writability(of: directory.file("absent/dir")) == .noSuchFileOrDirectory)
    }
}

/// What a command-line program asks of the system besides files, on a real socket.
@Suite("A TCP port probed with a deadline")
struct TerminalAndProbeSyscallsTests {
    @Test("a listening loopback port accepts within the deadline; a port nothing listens on does not, at once")
    func probesATCPPort() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { Syscalls.closeFile(listener) }
        let port = try LoopbackPort.free()
        let bound = InternetSocketAddress.loopback(port: UInt16(port)).withSockaddr { bind(listener, $0, $1) == 0 }
        #expect(bound && listen(listener, 4) == 0)
        #expect(Syscalls.acceptsConnections(host: "127.0.0.1", port: port, timeout: 5))
        let closed = try LoopbackPort.free()
        #expect(!Syscalls.acceptsConnections(host: "127.0.0.1", port: closed, timeout: 5))
        #expect(!Syscalls.acceptsConnections(host: "no-such-host.invalid", port: port, timeout: 1))
    }

    @Test("echo cannot be turned off on what is no terminal, and then nothing runs")
    func noEchoNeedsATerminal() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach(Syscalls.closeFile) }
        var ran = false
        #expect(throws: Errno.notATypewriter) { try Syscalls.withoutEcho(ends[0]) { ran = true } }
        #expect(!ran && !Syscalls.isTerminal(ends[0]))
    }
}

import PlumSystem
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The transport's direct `send(2)`, on real Unix socket pairs: what it writes, what it leaves
/// to NIO, and when it stops writing.
@Suite("DirectWriter, the transport's direct send")
struct DirectWriterTests {
    /// A connected pair: `writer` non-blocking with a small send buffer (as the daemon's
    /// accepted sockets are non-blocking), `reader` blocking. Closed on deinit.
    final class Pair {
        let writer: CInt
        let reader: CInt
        private var readerOpen = true

        init(sendBuffer: CInt? = nil) throws {
            var descriptors: [CInt] = [-1, -1]
            try #require(
                socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0,
                "socketpair: \(Errno.current)")
            writer = descriptors[0]
            reader = descriptors[1]
            try #require(fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK) == 0, "\(Errno.current)")
            if var size = sendBuffer {
                setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<CInt>.size))
                setsockopt(reader, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size))
            }
        }

        func closeReader() {
            close(reader)
            readerOpen = false
        }

        /// Reads exactly `count` bytes from the reader, blocking.
        func read(_ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var total = 0
            while total < count {
                let got = bytes.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress! + total, count - total) }
                if got <= 0 { break }
                total += got
            }
            return Array(bytes.prefix(total))
        }

        deinit {
            close(writer)
            if readerOpen { close(reader) }
        }
    }

    private func write(_ writer: inout DirectWriter, _ bytes: [UInt8]) -> DirectWriter.Outcome {
        bytes.withUnsafeBytes { writer.write($0) }
    }

    @Test("a message the socket's buffer takes is written whole, in one send, and nothing is left for NIO")
    func complete() throws {
        let pair = try Pair()
        var writer = DirectWriter(descriptor: pair.writer)
        let line = Array(#"{"class":"WEIGHT","grams":41.5}"#.utf8) + [10]
        #expect(write(&writer, line) == .complete)
        #expect(pair.read(line.count) == line)
        #expect(writer.isDirect && writer.queuedInNIO == 0)
    }

    @Test(
        "a full socket buffer makes it report a partial write of the first bytes, then EAGAIN, leaving the rest to NIO"
    )
    func partialThenWouldBlock() throws {
        let pair = try Pair(sendBuffer: 4096)
        var writer = DirectWriter(descriptor: pair.writer)
        // Far more than the kernel's smallest socket buffers hold, so it cannot all fit.
        let message = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let first = write(&writer, message)
        guard case .partial(let sent) = first else {
            Issue.record("expected a partial write, got \(first)")
            return
        }
        #expect(sent > 0 && sent < message.count)
        // Nobody reads, so the buffer is still full: nothing more goes, and the writer says so.
        #expect(write(&writer, [1, 2, 3]) == .wouldBlock)
        // What did go is exactly the message's first `sent` bytes, in order.
        #expect(pair.read(sent) == Array(message.prefix(sent)))
    }

    @Test("while NIO holds a message, every later one is deferred to NIO so that none overtakes it")
    func defersBehindNIO() throws {
        let pair = try Pair()
        var writer = DirectWriter(descriptor: pair.writer)
        writer.handedToNIO()
        #expect(!writer.isDirect)
        #expect(write(&writer, Array("later\n".utf8)) == .deferred)
        writer.handedToNIO()
        writer.finishedInNIO(failed: false)
        #expect(write(&writer, Array("still later\n".utf8)) == .deferred, "one message is still in NIO")
        writer.finishedInNIO(failed: false)
        #expect(writer.isDirect)
        #expect(write(&writer, Array("direct\n".utf8)) == .complete)
        #expect(pair.read(7) == Array("direct\n".utf8), "the deferred messages were NIO's, not written here")
    }

    @Test("a closed peer is EPIPE, reported without a SIGPIPE, and the socket is not written again")
    func brokenPipe() throws {
        let pair = try Pair()
        var writer = DirectWriter(descriptor: pair.writer)
        pair.closeReader()
        // Without MSG_NOSIGNAL this would kill the test process.
        #expect(write(&writer, Array("gone\n".utf8)) == .failed(.brokenPipe))
        #expect(!writer.isDirect)
        #expect(write(&writer, Array("again\n".utf8)) == .deferred)
    }

    @Test("a failed write in NIO stops the direct path too: the connection is failing")
    func failureInNIO() throws {
        let pair = try Pair()
        var writer = DirectWriter(descriptor: pair.writer)
        writer.handedToNIO()
        writer.finishedInNIO(failed: true)
        #expect(writer.queuedInNIO == 0)
        #expect(write(&writer, Array("x\n".utf8)) == .deferred)
    }

    @Test("a session given no socket, or one that stopped, defers everything to NIO")
    func noSocket() throws {
        var none = DirectWriter(descriptor: -1)
        #expect(write(&none, [1]) == .deferred)
        let pair = try Pair()
        var stopped = DirectWriter(descriptor: pair.writer)
        stopped.stop()
        #expect(write(&stopped, [1]) == .deferred)
    }
}

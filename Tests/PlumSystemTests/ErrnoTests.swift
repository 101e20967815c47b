import Glibc
import PlumSystem
import Testing

@Suite("Errno names and messages")
struct ErrnoTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var errno: Errno
        var name: String
        var message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(errno: .permissionDenied, name: "EACCES", message: "Permission denied"),
        Case(errno: .noSuchFileOrDirectory, name: "ENOENT", message: "No such file or directory"),
        Case(errno: .noSuchDeviceOrAddress, name: "ENXIO", message: "No such device or address"),
        Case(errno: .deviceBusy, name: "EBUSY", message: "Device or resource busy"),
        Case(errno: .operationNotPermitted, name: "EPERM", message: "Operation not permitted"),
        Case(errno: .remoteIOError, name: "EREMOTEIO", message: "Remote I/O error"),
        Case(errno: .notATypewriter, name: "ENOTTY", message: "Inappropriate ioctl for device")
    ]

    @Test("each errno has glibc's symbolic name and message, shown as 'message (NAME)'", arguments: cases)
    func nameAndMessage(_ test: Case) {
        #expect(test.errno.name == test.name)
        #expect(test.errno.message == test.message)
        #expect(test.errno.description == "\(test.message) (\(test.name))")
    }

    @Test("an errno glibc does not know still has a name and a message that carry its number")
    func unknownErrno() {
        let unknown = Errno(rawValue: 9999)
        #expect(unknown.name == "E9999")
        #expect(unknown.message.contains("9999"))
    }

    @Test("Errno.current reads the calling thread's errno")
    func current() {
        errno = EBUSY
        #expect(Errno.current == .deviceBusy)
    }
}

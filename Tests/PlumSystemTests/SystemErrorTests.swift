import PlumSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("SystemError formatting")
struct SystemErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var error: SystemError
        var text: String
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(
            error: SystemError(
                .systemCall, operation: "opening", subject: "/dev/gpiochip0", errno: .permissionDenied,
                hint: "add the user to group 'gpio'"),
            text: "opening /dev/gpiochip0: Permission denied (EACCES); add the user to group 'gpio'"),
        Case(
            error: SystemError(
                .alreadyRunning, operation: "binding", subject: "/run/plumscale/plumscale.sock",
                detail: "another daemon is listening there", hint: "stop it"),
            text: "binding /run/plumscale/plumscale.sock: another daemon is listening there; stop it"),
        Case(
            error: SystemError(
                .systemCall, operation: "connecting to", subject: "/run/x.sock", errno: .connectionRefused,
                detail: "nothing listens there"),
            text: "connecting to /run/x.sock: Connection refused (ECONNREFUSED)"),
        Case(
            error: SystemError(.notFound, operation: "", subject: "gpiochip9", hint: "chips here: none"),
            text: "gpiochip9; chips here: none")
    ]

    @Test("the description reads 'operation subject: errno or detail; hint', the errno first", arguments: cases)
    func description(_ test: Case) {
        #expect(test.error.description == test.text)
    }

    @Test("systemCall takes the calling thread's errno when none is given")
    func currentErrno() {
        Errno.current = .addressInUse
        let error = SystemError.systemCall("binding", "127.0.0.1:80", hint: "choose another port")
        #expect(error.code == .systemCall)
        #expect(error.errno == .addressInUse)
        #expect(error.description == "binding 127.0.0.1:80: Address already in use (EADDRINUSE); choose another port")
    }
}

import PlumTestSupport
import Testing

@testable import PlumHardware

@Suite("Framebuffer devices: opening and the kernel's format")
struct FramebufferDeviceTests {
    @Test("a framebuffer that is not there is ENOENT naming the path and how to get one")
    func missingDevice() throws {
        let directory = try TemporaryDirectory(prefix: "plumscale-fb")
        let path = directory.file("fb7")
        let error = #expect(throws: HardwareError.self) { try FramebufferDevice(path: path) }
        #expect(error?.code == .notFound)
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.subject == path)
        #expect(error?.description.hasPrefix("opening \(path): ") == true)
        #expect(error?.hint?.contains("no framebuffer at \(path)") == true)
        #expect(error?.hint?.contains("dtoverlay") == true)
        #expect(error?.hint?.contains("modprobe vfb vfb_enable=1") == true)
    }

    @Test("a regular file is no framebuffer: FBIOGET_VSCREENINFO fails with ENOTTY and the error says so")
    func regularFile() throws {
        let directory = try TemporaryDirectory(prefix: "plumscale-fb")
        let path = try directory.write("fb0", "not pixels\n")
        let error = #expect(throws: HardwareError.self) { try FramebufferDevice(path: path) }
        #expect(error?.code == .systemCall)
        #expect(error?.errno == .notATypewriter)
        #expect(error?.operation.contains("FBIOGET_VSCREENINFO") == true)
        #expect(error?.subject == path)
        #expect(error?.description.contains("ENOTTY") == true)
        #expect(error?.hint?.contains("not a framebuffer") == true)
    }

    @Test("a character device without the ioctl (/dev/null) is refused the same way")
    func characterDevice() {
        let error = #expect(throws: HardwareError.self) { try FramebufferDevice(path: "/dev/null") }
        #expect(error?.errno == .notATypewriter)
        #expect(error?.operation.contains("FBIOGET_VSCREENINFO") == true)
    }

    @Test("permission denied names the group 'video'")
    func permissionHint() {
        for errno in [Errno.permissionDenied, .operationNotPermitted] {
            let error = HardwareError.framebufferOpen(path: "/dev/fb1", errno: errno)
            #expect(error.code == .systemCall)
            #expect(error.description.hasPrefix("opening /dev/fb1: "))
            #expect(error.hint?.contains("group 'video'") == true)
        }
    }

    @Test("the shim's failing ioctl is named: FSCREENINFO when the second one fails")
    func secondRequestNamed() {
        let error = HardwareError.framebufferInfo(
            path: "/dev/fb0", request: "FBIOGET_FSCREENINFO", errno: .invalidArgument)
        #expect(error.description.hasPrefix("FBIOGET_FSCREENINFO on /dev/fb0: "))
        let first = HardwareError.framebufferInfo(path: "/dev/fb0", request: "", errno: .ioError)
        #expect(first.operation.contains("FBIOGET_VSCREENINFO"))
        #expect(first.hint == nil)
    }

    @Test("a format's visible row is width × depth rounded up to bytes, and the line defaults to it")
    func rowBytes() {
        let mono = FramebufferInfo(
            width: 13, height: 2, bitsPerPixel: 1, red: .none, green: .none, blue: .none)
        #expect(mono.rowBytes == 2)
        #expect(mono.lineLength == 2)
        #expect(mono.memoryLength == 4)
        let rgb565 = FramebufferInfo(
            width: 320, height: 240, bitsPerPixel: 16, lineLength: 1024,
            red: .init(offset: 11, length: 5), green: .init(offset: 5, length: 6), blue: .init(offset: 0, length: 5))
        #expect(rgb565.rowBytes == 640)
        #expect(rgb565.memoryLength == 1024 * 240)
    }
}

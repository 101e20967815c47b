import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp for one test's files.
func temporaryDirectory() -> String {
    var template = Array("/tmp/plumscale-mqtt-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

func writeFile(_ path: String, _ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
}

func readFile(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        bytes.append(contentsOf: buffer[0..<count])
        if count < buffer.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The folder of this test bundle, where SwiftPM also puts the built executables.
let productsFolder: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let exe = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
}()

/// Polls `condition` until it holds or `seconds` pass: the deadline for waiting on a signal
/// from another process (a port accepting, a socket appearing), never a fixed sleep.
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The `main` of a fuzz target in a normal build: runs each input named on the command line
/// (a file, or every file in a directory) through the target once, so a crash that libFuzzer
/// found can be reproduced, and debugged, without the fuzzing toolchain.
///
/// Under `--sanitize fuzzer` the same target's `LLVMFuzzerTestOneInput` is libFuzzer's entry
/// and this is never called (see docs/testing.md, "Fuzzing").
package enum FuzzReplay {
    /// Runs `body` on every input `arguments` name and returns the process's exit status:
    /// 0 when every input ran (a crash never returns), 2 for a usage or file error.
    package static func main(_ arguments: [String], _ body: (UnsafeRawBufferPointer) -> Void) -> Int32 {
        let program = arguments.first ?? "fuzz"
        let paths = arguments.dropFirst()
        guard !paths.isEmpty, !paths.contains(where: { $0.hasPrefix("-") }) else {
            print("usage: \(program) INPUT|DIRECTORY...")
            print("runs each input once (a reproducer); build with Tests/fuzz/run.sh to fuzz")
            return 2
        }
        var count = 0
        for path in paths {
            for file in inputs(at: path) {
                guard let bytes = readFile(file) else {
                    print("\(program): cannot read \(file): \(Errno.current)")
                    return 2
                }
                bytes.withUnsafeBytes(body)
                count += 1
            }
        }
        print("\(program): \(count) input(s) ran without a crash")
        return 0
    }

    /// `path` itself, or the regular files in it when it is a directory, sorted by name.
    static func inputs(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var files: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            var status = stat()
            let full = "\(path)/\(name)"
            if stat(full, &status) == 0, status.st_mode & S_IFMT == S_IFREG { files.append(full) }
        }
        return files.sorted()
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes.append(contentsOf: buffer[0..<count])
            if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}

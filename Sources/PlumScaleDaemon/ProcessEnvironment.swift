#if canImport(Glibc)
    internal import Glibc
#endif

/// The process's environment as a dictionary.
enum ProcessEnvironment {
    static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer = pointer.advanced(by: 1)
        }
        return result
    }
}

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// An errno from a file step, with the C library's wording for messages.
struct FileErrno: Error, Hashable {
    var code: Int32

    init(_ code: Int32) { self.code = code }

    /// E.g. `Permission denied (errno 13)`.
    var text: String {
        let message = strerror(code).map { String(cString: $0) } ?? "error"
        return "\(message) (errno \(code))"
    }
}

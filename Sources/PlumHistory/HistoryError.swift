/// The history store could not be opened, read or written; the message names the file.
public struct HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

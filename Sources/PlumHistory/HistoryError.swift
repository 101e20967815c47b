/// The history store could not be opened, read or written; the message names the file.
package struct HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}

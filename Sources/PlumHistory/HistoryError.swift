/// The history store could not be opened, read or written; the message names the file.
package struct HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    /// SQLite said the disk is full (`SQLITE_FULL`): the store is sound, and freeing space is
    /// the cure, so a writer keeps its rows and tries again.
    package var noSpace: Bool

    package init(_ message: String, noSpace: Bool = false) {
        self.message = message
        self.noSpace = noSpace
    }

    package var description: String { message }
}

internal import GRDB

#if canImport(Glibc)
    internal import Glibc
#endif

/// How big the history is and how far back it goes: what `plumscale status` and the web page
/// show, so a card filling up is seen before it is full.
package struct HistorySummary: Hashable, Sendable {
    /// The file with its write-ahead log and shared-memory index: what it takes on the card.
    package var bytes: Int64
    /// The oldest row's time, seconds since the epoch: a stable reading's time or a minute's
    /// start, whichever is older; nil when the history is empty.
    package var oldest: Double?
    package var stableRows: Int
    package var minuteRows: Int

    package init(bytes: Int64, oldest: Double?, stableRows: Int, minuteRows: Int) {
        self.bytes = bytes
        self.oldest = oldest
        self.stableRows = stableRows
        self.minuteRows = minuteRows
    }
}

extension HistoryStore {
    /// The store's size on disk and its oldest row; the counts walk the tables' indexes.
    /// - Throws: ``HistoryError`` naming the file.
    package func summary() throws(HistoryError) -> HistorySummary {
        let (oldest, stableRows, minuteRows) = try run("reading the history's size") {
            try pool.read { db -> (Double?, Int, Int) in
                let found = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT MIN(time) FROM stable_reading) AS stable,
                               (SELECT MIN(minute) FROM minute_summary) AS minute,
                               (SELECT COUNT(*) FROM stable_reading) AS stable_rows,
                               (SELECT COUNT(*) FROM minute_summary) AS minute_rows
                        """)
                guard let row = found else { return (nil, 0, 0) }
                // NULL (an empty table) reads as nil through the optional types.
                let stable: Double? = row["stable"]
                let minute: Double? = row["minute"]
                let stableRows: Int = row["stable_rows"]
                let minuteRows: Int = row["minute_rows"]
                return ([stable, minute].compactMap { $0 }.min(), stableRows, minuteRows)
            }
        }
        let bytes = [path, path + "-wal", path + "-shm"].reduce(Int64(0)) { $0 + Self.fileSize($1) }
        return HistorySummary(bytes: bytes, oldest: oldest, stableRows: stableRows, minuteRows: minuteRows)
    }

    /// A file's size, 0 when it is not there (no WAL between checkpoints of a closed store).
    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

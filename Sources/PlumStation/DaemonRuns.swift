internal import FoundationEssentials
package import PlumSystem

/// How often the daemon has started on this state directory, and how its runs ended, kept in
/// `daemon-runs.json` beside the calibrations.
///
/// A start writes `"running": true`; a graceful stop (SIGTERM, `systemctl stop`) writes it back
/// to false. A run that ended any other way (SIGKILL, a crash, a power cut, the watchdog) left
/// `true` behind, and the next start counts it as an unclean stop. One file rather than a
/// separate marker: the count and the flag change together, in one rename.
/// The file is synced at each change (twice a run), so a power cut right after a start
/// cannot lose the flag and pass for a clean stop.
package enum DaemonRuns {
    package static let fileName = "daemon-runs.json"

    /// What the file holds.
    package struct Record: Codable, Hashable, Sendable {
        /// Starts on this state directory, the current one included.
        package var starts: Int
        /// Runs that ended without a graceful stop.
        package var uncleanStops: Int
        /// How the run before this one ended: `clean` or `unclean`; nil on a first start.
        package var lastStop: String?
        /// True while a daemon runs on the directory.
        package var running: Bool

        package init(starts: Int = 0, uncleanStops: Int = 0, lastStop: String? = nil, running: Bool = false) {
            self.starts = starts
            self.uncleanStops = uncleanStops
            self.lastStop = lastStop
            self.running = running
        }

        enum CodingKeys: String, CodingKey {
            case starts
            case uncleanStops = "unclean_stops"
            case lastStop = "last_stop"
            case running
        }

        /// Restarts the daemon has seen: every start but the first.
        package var restarts: Int { max(0, starts - 1) }
    }

    /// Counts a start in `directory`: how the last run ended, and that one runs now.
    /// - Returns: the record as saved, and a note when the old file could not be read (it is
    ///   started afresh: a counter is not worth refusing to weigh for).
    /// - Throws: ``SystemError`` when the record cannot be saved; the daemon runs without it.
    package static func begin(directory: String) throws(SystemError) -> (record: Record, note: String?) {
        let path = "\(directory)/\(fileName)"
        var record = Record()
        var note: String?
        switch Syscalls.readWholeFile(path, limit: 64 * 1024) {
        case .success(nil):
            break
        case .success(let bytes?):
            if let old = try? JSONDecoder().decode(Record.self, from: Data(bytes)) {
                record = old
                record.lastStop = old.running ? "unclean" : "clean"
                if old.running { record.uncleanStops += 1 }
            } else {
                note = "\(path) is not a run record; counting starts afresh"
            }
        case .failure(let errno):
            note = "reading \(path): \(errno); counting starts afresh"
        }
        record.starts += 1
        record.running = true
        try save(record, directory: directory)
        return (record, note)
    }

    /// Marks the run as stopped gracefully, so the next start counts it as clean.
    /// - Throws: ``SystemError`` when the record cannot be saved (the next start then counts
    ///   this stop as unclean).
    package static func end(_ record: Record, directory: String) throws(SystemError) {
        var record = record
        record.running = false
        try save(record, directory: directory)
    }

    /// Writes the record through a `.json.tmp` file (which a start after a power cut removes),
    /// syncs it, renames it over the old one and syncs the directory.
    static func save(_ record: Record, directory: String) throws(SystemError) {
        let path = "\(directory)/\(fileName)"
        let temporary = path + ".tmp"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let encoded = try? encoder.encode(record) else {
            throw SystemError(.malformed, operation: "encoding", subject: path, detail: "\(record)")
        }
        let steps: [(String, String, () -> Result<Void, Errno>)] = [
            ("writing", temporary, { Syscalls.writeWholeFile(temporary, Array(encoded) + [0x0A], mode: 0o640) }),
            ("syncing", temporary, { Syscalls.syncFile(temporary) }),
            ("renaming", "\(temporary) to \(path)", { Syscalls.rename(temporary, path) }),
            ("syncing directory", directory, { Syscalls.syncDirectory(directory) })
        ]
        for (operation, subject, step) in steps {
            if case .failure(let errno) = step() {
                throw SystemError(
                    .systemCall, operation: operation, subject: subject, errno: errno,
                    hint: "restarts are not counted until the state directory is writable")
            }
        }
    }
}

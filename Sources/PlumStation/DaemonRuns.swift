internal import FoundationEssentials
package import PlumStore
internal import PlumSystem

/// How often the daemon has started on this state directory, and how its runs ended, kept in
/// `daemon-runs.json` beside the calibrations.
///
/// A start writes `"running": true`; a graceful stop (SIGTERM, `systemctl stop`) writes it back
/// to false. A run that ended any other way (SIGKILL, a crash, a power cut, the watchdog) left
/// `true` behind, and the next start counts it as an unclean stop. One file rather than a
/// separate marker: the count and the flag change together, in one rename.
/// The file is a ``SealedFile`` like the other state files, synced at each change (twice a
/// run), so a power cut right after a start cannot lose the flag and pass for a clean stop.
/// Daemons before the sealed file wrote the bare ``Record``: a start reads such a file once,
/// and its save seals it.
package enum DaemonRuns {
    package static let fileName = "daemon-runs.json"
    package static let formatName = "plumscale-daemon-runs"
    package static let schemaVersion = 1

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

    /// The record's file in `directory`.
    static func file(_ directory: String) -> SealedFile<Record> {
        SealedFile(
            format: formatName, schemaVersion: schemaVersion, contents: "run record", directory: directory,
            name: fileName, pretty: true)
    }

    /// Counts a start in `directory`: how the last run ended, and that one runs now.
    /// - Returns: the record as saved, and a note when the old file could not be read (it is
    ///   started afresh: a counter is not worth refusing to weigh for).
    /// - Throws: ``CalibrationStoreError`` when the record cannot be saved; the daemon runs without it.
    package static func begin(directory: String) throws(CalibrationStoreError) -> (record: Record, note: String?) {
        var note: String?
        var saved: Record?
        switch file(directory).load(hint: "counting starts afresh") {
        case .success(let record):
            saved = record
        case .failure(let error):
            // Not sealed: perhaps the bare record an older daemon wrote, which the save below seals.
            saved = error.code == .corrupt ? unsealed(at: error.path) : nil
            if saved == nil { note = "\(error)" }
        }
        var record = saved ?? Record()
        if let saved {
            record.lastStop = saved.running ? "unclean" : "clean"
            if saved.running { record.uncleanStops += 1 }
        }
        record.starts += 1
        record.running = true
        try save(record, directory: directory)
        return (record, note)
    }

    /// Marks the run as stopped gracefully, so the next start counts it as clean.
    /// - Throws: ``CalibrationStoreError`` when the record cannot be saved (the next start then
    ///   counts this stop as unclean).
    package static func end(_ record: Record, directory: String) throws(CalibrationStoreError) {
        var record = record
        record.running = false
        try save(record, directory: directory)
    }

    /// Writes the record through a `.json.tmp` file (which a start after a power cut removes),
    /// syncs it, renames it over the old one and syncs the directory (``SealedFile/save(_:keepPrevious:unchanged:)``).
    static func save(_ record: Record, directory: String) throws(CalibrationStoreError) {
        try file(directory).save(record, unchanged: "restarts are not counted until the state directory is writable")
            .get()
    }

    /// The record as daemons before the sealed file wrote it (the bare JSON object), or nil.
    static func unsealed(at path: String) -> Record? {
        guard case .success(let bytes?) = Syscalls.readWholeFile(path, limit: 64 * 1024) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: Data(bytes))
    }
}

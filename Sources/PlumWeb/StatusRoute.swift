import FoundationEssentials
internal import PlumClient
internal import PlumHistory
internal import PlumProtocol
internal import PlumSystem

#if canImport(Glibc)
    internal import Glibc
#endif

/// `GET /api/status`: what `plumscale status` shows, for the page: this service's uptime, the
/// daemon's uptime, restarts and free space, each sensor's last fault with its time, the
/// history's size and oldest row, and the warnings (low free space).
///
/// The daemon is asked afresh (`?DEVICES`) rather than read from the board's copy, so the
/// uptime and free space are of now; the history is summed on ``BlockingWork/history``.
struct StatusRoute: Sendable {
    let daemon: DaemonLink
    let history: HistoryStore?
    let service: ServiceStart
    /// Says when the history's writes fail (a full disk); nil when none records here.
    var keeper: HistoryKeeper?

    /// When and as which process this service started: its uptime is on the monotonic clock,
    /// its start time for people on the wall clock as it reads when asked, less the uptime, so a
    /// clock set after the start (an old fake-hwclock, NTP) does not leave an old start behind.
    struct ServiceStart: Sendable {
        let instant = ContinuousClock.now
        let pid = Int(getpid())
    }

    func json() async -> String {
        var json = JSONWriter()
        var warnings: [String] = []
        json.add("services", objects: [serviceObject()])
        do {
            let report = try await daemon.devicesReport()
            json.add("connected", true)
            var daemonJSON = report.daemon?.object ?? JSONWriter()
            if let uptime = report.uptime { daemonJSON.add("uptime", uptime) }
            if let status = report.daemon {
                daemonJSON.add("state_low", status.isStateSpaceLow)
                if status.isStateSpaceLow, let free = status.stateFreeBytes {
                    warnings.append(
                        "the daemon's state directory \(status.stateDirectory ?? "") has only \(free / 1_000_000) MB "
                            + "free, below 50 MB or 5 %: zero, tare and calibrations cannot be saved once it is full")
                }
            }
            json.add("daemon", object: daemonJSON)
            json.add("devices", objects: report.devices.map(Self.fault))
            // The services the daemon lists (`?CLIENT`, protocol 1.7): the bridge, and this one.
            if let clients = report.clients { json.add("clients", objects: clients.map(\.object)) }
        } catch {
            json.add("connected", false)
            json.add("daemon_error", "\(error)")
        }
        if let history {
            do throws(HistoryError) {
                let summary = try await Self.summary(of: history)
                // statvfs(2) of the file itself: the file system it is on, usually not the daemon's.
                if let space = try? FileSystemSpace.of(history.path) {
                    let free = Int64(clamping: space.availableBytes)
                    let total = Int64(clamping: space.totalBytes)
                    var object = Self.object(summary, path: history.path)
                    object.add("free_bytes", free)
                    object.add("total_bytes", total)
                    object.add("low", DaemonStatus.isLow(free: free, total: total))
                    json.add("history", object: object)
                    if DaemonStatus.isLow(free: free, total: total) {
                        warnings.append(
                            "the history's file system has only \(free / 1_000_000) MB free, below 50 MB or 5 %: "
                                + "new readings cannot be recorded once it is full")
                    }
                } else {
                    json.add("history", object: Self.object(summary, path: history.path))
                }
            } catch {
                json.add("history_error", error.message)
            }
        }
        if let failure = await keeper?.currentWriteFailure {
            json.add("history_write_error", failure.message)
            json.add("history_unwritten", failure.unwritten)
            warnings.append(
                "the history cannot be written (\(failure.failedWrites) writes failed): \(failure.message); "
                    + "\(failure.unwritten) rows wait in memory and are written once a write works again")
        }
        json.add("warnings", strings: warnings)
        return json.finished
    }

    private func serviceObject() -> JSONWriter {
        var json = JSONWriter()
        json.add("service", "plumscale-web")
        json.add("pid", service.pid)
        let uptime = ContinuousClock.now - service.instant
        let started = Date().timeIntervalSince1970 - Double(uptime / .milliseconds(1)) / 1000
        json.add("started", Date(timeIntervalSince1970: started.rounded(.down)).formatted(.iso8601))
        json.add("uptime", (uptime / .milliseconds(100)).rounded(.down) / 10)
        return json
    }

    /// A sensor's state and last fault, with when it began.
    private static func fault(_ device: DevicesReport.Device) -> JSONWriter {
        var json = JSONWriter()
        json.add("sensor", device.sensor)
        json.add("state", device.state)
        if let fault = device.lastFault { json.add("last_fault", fault) }
        if let time = device.lastFaultTime { json.add("last_fault_time", time) }
        return json
    }

    private static func object(_ summary: HistorySummary, path: String) -> JSONWriter {
        var json = JSONWriter()
        json.add("path", path)
        json.add("bytes", summary.bytes)
        if let oldest = summary.oldest { json.add("oldest", oldest) }
        json.add("stable_rows", summary.stableRows)
        json.add("minute_rows", summary.minuteRows)
        return json
    }

    private static func summary(of store: HistoryStore) async throws(HistoryError) -> HistorySummary {
        let result = try? await BlockingWork.history.runIfActive { () -> Result<HistorySummary, HistoryError> in
            do throws(HistoryError) { return .success(try store.summary()) } catch { return .failure(error) }
        }
        guard let result else { throw HistoryError("reading the history's size: the service is stopping") }
        return try result.get()
    }
}

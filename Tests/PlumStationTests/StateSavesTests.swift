import PlumCore
import PlumStore
import Testing

@testable import PlumStation

/// A full disk is logged once when saves begin to fail and once when they work again, however
/// many saves fail between (zero tracking asks every other second), and `?DEVICES` says it.
@Suite("State saves: a full disk logged once, its end logged once")
struct StateSavesTests {
    static func error(_ errno: Int32, path: String = "/state/pan-gain128.zero-tare.json") -> CalibrationStoreError {
        CalibrationStoreError(
            code: .io, path: path, message: "writing \(path).tmp failed: No space left on device (ENOSPC)",
            errno: errno, hint: "the file system holding /state is full: free some space there; unchanged")
    }

    @Test("the first failure is a line saying what is lost meanwhile; the same kind again is none")
    func onceWhileFull() throws {
        var saves = StateSaves()
        let logged = saves.failed("pan: zero and tare", Self.error(28), at: "2026-11-27T07:00:00Z")
        let first = try #require(logged)
        #expect(
            first.hasPrefix("pan: zero and tare not saved: /state/pan-gain128.zero-tare.json: writing ")
                && first.contains("free some space there")
                && first.contains("until space is freed, zero, tare and settings hold in memory only"), "\(first)")
        for _ in 0..<50 {
            #expect(saves.failed("runtime settings", Self.error(28, path: "/state/settings.json")) == nil)
        }
        #expect(
            saves.problem
                == "pan: zero and tare not saved since 2026-11-27T07:00:00Z (51 failed): "
                + "writing /state/pan-gain128.zero-tare.json.tmp failed: No space left on device (ENOSPC); "
                + "the file system holding /state is full: free some space there; unchanged")
        // A quota used up is the same cure but another errno: said again, not hidden.
        #expect(saves.failed("pan: zero and tare", Self.error(122)) != nil)
    }

    @Test("the first save that works after failures is logged with their count; later ones are not")
    func recovery() throws {
        var saves = StateSaves()
        #expect(saves.succeeded("pan: zero and tare") == nil, "saves that always worked log nothing")
        _ = saves.failed("pan: zero and tare", Self.error(28), at: "2026-11-27T07:00:00Z")
        _ = saves.failed("pan: zero and tare", Self.error(28))
        #expect(
            saves.succeeded("pan: zero and tare")
                == "pan: zero and tare saved: the state directory takes saves again "
                + "(2 saves failed since 2026-11-27T07:00:00Z)")
        #expect(saves.problem == nil && saves.succeeded("pan: zero and tare") == nil)
        #expect(saves.failed("pan: zero and tare", Self.error(28)) != nil, "a new full disk is logged again")
    }

    @Test("an error not of space is logged without the full-disk note")
    func otherError() throws {
        var saves = StateSaves()
        let logged = saves.failed("runtime settings", Self.error(13))
        let line = try #require(logged)
        #expect(!line.contains("until space is freed"), "\(line)")
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import PlumHistory
import PlumProtocol
import PlumWeb
import Testing

@Suite("Web service over HTTP", .timeLimit(.minutes(2)))
struct WebServiceTests {
    @Test("the page, its style and script are served by the binary and load nothing from elsewhere")
    func pageIsSelfContained() async throws {
        let fixture = try WebTestFixture()
        try await fixture.application().test(.live) { client in
            for (path, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/app.css", "text/css")] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path) must be served")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path) has the wrong type")
                    let body = String(buffer: response.body)
                    #expect(
                        !body.contains("http://") && !body.contains("https://") && !body.contains("//cdn"),
                        "\(path) must not load anything from another site")
                }
            }
        }
    }

    /// The files in Sources/PlumWeb/Assets, as written.
    static func asset(_ name: String) throws -> String {
        let path = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Sources/PlumWeb/Assets/\(name)")
        return String(decoding: try Data(contentsOf: path), as: UTF8.self)
    }

    @Test(
        "what is served is the page's files byte for byte: index.html, app.css, and app.js with session.js and setup.js"
    )
    func pageIsTheAssetFiles() async throws {
        let fixture = try WebTestFixture()
        let expected = [
            ("/", try Self.asset("index.html")), ("/app.css", try Self.asset("app.css")),
            ("/app.js", try ["app.js", "session.js", "setup.js"].map(Self.asset).joined(separator: "\n"))
        ]
        try await fixture.application().test(.live) { client in
            for (path, file) in expected {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(String(buffer: response.body) == file, "\(path) is not the file in Sources/PlumWeb/Assets")
                }
            }
        }
    }

    @Test("/api/poll gives every pan's latest reading, in the daemon's order, with the daemon's colour")
    func poll() async throws {
        let fixture = try WebTestFixture()
        await fixture.board.apply(try weight("right", grams: 40, heaviest: false))
        await fixture.board.apply(try weight("left", grams: 150.04, heaviest: true))
        await fixture.board.update(devices: try Reports.deviceList())
        try await fixture.application().test(.live) { client in
            try await client.execute(uri: "/api/poll", method: .get) { response in
                let poll = try JSONDecoder().decode(Poll.self, from: Data(buffer: response.body))
                #expect(poll.weights.map(\.sensor) == ["left", "right"], "pans follow the daemon's index order")
                #expect(poll.weights[0].display == "150.0 g" && poll.weights[0].heaviest, "left is heaviest")
                #expect(poll.weights[0].rgb == "#80ff00", "the colour is the daemon's, passed through")
            }
        }
    }

    @Test("/metrics has per-pan grams, stable, state, rate, discards and overloads named plumscale_…")
    func metrics() async throws {
        let fixture = try WebTestFixture()
        await fixture.board.apply(try weight("left", grams: 12.5))
        await fixture.board.apply(try weight("left", grams: 400, overload: true, percent: 104))
        await fixture.board.apply(try weight("left", grams: 401, overload: true, percent: 104))
        await fixture.board.update(devices: try Reports.deviceList())
        try await fixture.application().test(.live) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                for line in [
                    #"plumscale_weight_grams{sensor="left"} 12.5"#, #"plumscale_stable{sensor="left"} 1"#,
                    #"plumscale_overloads_total{sensor="left"} 1"#, #"plumscale_sample_rate_hertz{sensor="left"} 10.1"#,
                    #"plumscale_sensor_state{sensor="right",state="settling"} 1"#,
                    #"plumscale_samples_discarded_total{sensor="left",reason="spike"} 2"#
                ] {
                    #expect(text.contains(line), "missing \(line) in:\n\(text)")
                }
            }
        }
    }

    @Test("tare needs a login, our page's origin and the session's token; then the daemon gets ?TARE")
    func tareNeedsLogin() async throws {
        let fixture = try WebTestFixture()
        let body = ByteBuffer(string: #"{"sensor":"left"}"#)
        try await fixture.application().test(.live) { client in
            try await client.execute(uri: "/api/tare", method: .post, headers: WebTestFixture.sameOrigin, body: body) {
                #expect($0.status == .unauthorized, "no login, no tare")
            }
            try await client.execute(
                uri: "/api/login", method: .post, headers: WebTestFixture.sameOrigin,
                body: ByteBuffer(string: #"{"password":"wrong"}"#)
            ) { #expect($0.status == .unauthorized, "a wrong password is refused") }
            try await client.execute(
                uri: "/api/login", method: .post,
                headers: [.origin: "http://evil.example", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"password":"\#(WebTestFixture.password)"}"#)
            ) { #expect($0.status == .forbidden, "another site's page may not log in") }
            var headers = try await WebTestFixture.logIn(client)
            try await client.execute(uri: "/api/tare", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .ok, "a logged-in tare from our page is carried out")
                #expect(String(buffer: response.body).contains(#""tare":12.5"#), "the daemon's reply is passed on")
            }
            headers[.origin] = "http://evil.example"
            try await client.execute(uri: "/api/tare", method: .post, headers: headers, body: body) {
                #expect($0.status == .forbidden, "a cross-site request is refused even with the cookie")
            }
            headers[.origin] = "http://localhost"
            headers[.csrfToken] = "guess"
            try await client.execute(uri: "/api/tare", method: .post, headers: headers, body: body) {
                #expect($0.status == .forbidden, "a wrong CSRF token is refused")
            }
        }
        #expect(
            fixture.daemon.requests.filter { $0 == .tare(sensor: "left") }.count == 1,
            "exactly the one authorized tare reaches the daemon: \(fixture.daemon.requests)")
    }

    @Test("the calibration wizard's steps go to the daemon as ?CALIBRATE and the fit comes back")
    func calibrationSteps() async throws {
        let fixture = try WebTestFixture()
        try await fixture.application().test(.live) { client in
            let headers = try await WebTestFixture.logIn(client)
            for (step, grams) in [("begin", nil), ("zero", nil), ("point", 100.0), ("fit", nil), ("commit", nil)] {
                let body =
                    grams.map { #"{"sensor":"left","step":"\#(step)","grams":\#($0)}"# }
                    ?? #"{"sensor":"left","step":"\#(step)"}"#
                try await client.execute(
                    uri: "/api/calibrate", method: .post, headers: headers,
                    body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == .ok, "step \(step): \(String(buffer: response.body))")
                    #expect(String(buffer: response.body).contains(#""residuals":[0.01,-0.01]"#))
                }
            }
            try await client.execute(
                uri: "/api/calibrate", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"sensor":"left","step":"point"}"#)
            ) {
                #expect($0.status == .badRequest, "a point without its known weight is refused before the daemon")
            }
            try await client.execute(
                uri: "/api/calibrate", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"sensor":"middle","step":"begin"}"#)
            ) { response in
                #expect(response.status == .badRequest, "the daemon's ERROR is the client's mistake")
                #expect(String(buffer: response.body).contains("unknown sensor"), "and its message is passed on")
            }
        }
        let steps = fixture.daemon.requests.compactMap { request -> String? in
            if case .calibrate(let step) = request { return step.step.rawValue }
            return nil
        }
        #expect(steps == ["begin", "zero", "point", "fit", "commit", "begin"], "the CLI's steps, in order")
    }

    @Test("a missing password file says how to make one")
    func noPasswordFile() async throws {
        let fixture = try WebTestFixture(passwordFile: false)
        try await fixture.application().test(.live) { client in
            try await client.execute(
                uri: "/api/login", method: .post, headers: WebTestFixture.sameOrigin,
                body: ByteBuffer(string: #"{"password":"x"}"#)
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(
                    String(buffer: response.body).contains("plumscale-web hash-password"),
                    "the message says what to run")
            }
        }
    }

    @Test("a seeded trace goes into the history and the CSV comes out with the expected rows")
    func historyCSV() async throws {
        let fixture = try WebTestFixture(now: 1_795_388_400)
        let keeper = HistoryKeeper(store: fixture.history, retentionDays: 90, batching: .immediate)
        // Two minutes of a pan loaded with 100 g then 200 g, one reading every 10 s, then the
        // first reading of a third minute to close the second.
        let start = 1_795_388_100.0
        for index in 0..<13 {
            let grams = index < 6 ? 100.0 + Double(index % 2) : 200.0 + Double(index % 3)
            await keeper.record(try weightReport(weight("left", grams: grams, time: start + Double(index) * 10)))
        }
        try await fixture.application().test(.live) { client in
            let uri = "/api/history?sensor=left&since=\(Int(start))&until=\(Int(start) + 180)&format=csv"
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(
                    String(buffer: response.body) == """
                        time,sensor,min,mean,max,samples
                        2026-11-22T22:55:00Z,left,100.000,100.500,101.000,6
                        2026-11-22T22:56:00Z,left,200.000,201.000,202.000,6

                        """, "one row per closed minute with min, mean and max")
            }
            try await client.execute(uri: "/api/history?series=stable&since=2026-11-22&format=csv", method: .get) {
                let lines = String(buffer: $0.body).split(separator: "\n")
                #expect(
                    lines.first == "time,sensor,grams" && lines.count == 14,
                    "every changed stable weight: \(lines)")
            }
            try await client.execute(uri: "/api/history?since=soon", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("30m, 12h, 7d"), "the message lists the forms allowed")
            }
        }
    }

    @Test("a read of placements writes what waits; a read of minutes writes nothing and adds those waiting, once")
    func readsSeeWaitingPlacements() async throws {
        let fixture = try WebTestFixture(now: 1_795_388_400, batching: .standard)
        let keeper = try #require(fixture.keeper)
        let start = 1_795_388_100.0
        // A pan that settles on 100 g, and 50 s later on 200 g: both within the 90 s a placement
        // may wait, so neither is in the file yet.
        for index in 0..<9 {
            let grams = index < 5 ? 100.0 : 200.0
            await keeper.record(try weightReport(weight("left", grams: grams, time: start + Double(index) * 10)))
        }
        let window = HistoryWindow(since: 0, until: start + 600)
        #expect(try fixture.history.stableReadings(sensor: nil, in: window).isEmpty, "both placements wait")
        let waiting = await keeper.unwritten
        try await fixture.application().test(.live) { client in
            let minute = """
                time,sensor,min,mean,max,samples
                2026-11-22T22:55:00Z,left,100.000,116.667,200.000,6

                """
            try await client.execute(uri: "/api/history?since=0&format=csv", method: .get) { response in
                #expect(String(buffer: response.body) == minute, "the closed minute, still waiting")
            }
            #expect(await keeper.unwritten == waiting, "the minutes' read wrote nothing")
            #expect(try fixture.history.minutes(sensor: nil, in: window).isEmpty)
            try await client.execute(uri: "/api/history?series=stable&since=0&format=csv", method: .get) {
                #expect(
                    String(buffer: $0.body).split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] }
                        == ["100.000", "200.000"],
                    "both placements, written for this read: \(String(buffer: $0.body))")
            }
            #expect(await keeper.unwritten == 0)
            #expect(try fixture.history.stableReadings(sensor: nil, in: window).count == 2, "and in the file")
            try await client.execute(uri: "/api/history?since=0&format=json", method: .get) {
                let text = String(buffer: $0.body)
                #expect(
                    text.components(separatedBy: "\"sensor\"").count == 2 && text.hasPrefix("[{"),
                    "the minute once, from the file now: \(text)")
            }
            try await client.execute(uri: "/api/history?series=items&since=0&format=csv", method: .get) {
                #expect($0.status == .ok)
            }
        }
    }

    struct Poll: Decodable {
        var connected: Bool
        var weights: [Weight]
        struct Weight: Decodable {
            var sensor: String
            var display: String
            var heaviest: Bool
            var rgb: String
        }
    }
}

func weightReport(_ report: Report) throws -> WeightReport {
    guard case .weight(let weight) = report else { throw Reports.NotAReport() }
    return weight
}

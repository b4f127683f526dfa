import Foundation
import TestServices
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What an operator sees (issue 71): a real Prometheus (Debian's) scrapes a running
/// `vocab serve --cloud --metrics` while a learner syncs and studies on her phone's page, its
/// API answers the request counters and a quantile of the next card's latency, the alert rules
/// docs/prometheus ships load, and the one for a server down fires when the server stops.
final class MetricsEndToEndTests: CloudEndToEndTestCase {
    private var prometheus: Process?

    override func tearDown() {
        if let prometheus, prometheus.isRunning {
            prometheus.terminate()
            prometheus.waitUntilExit()
        }
        super.tearDown()
    }

    /// A query of Prometheus' API: the first result's value, when there is one.
    private func query(_ port: Int, _ expression: String) throws -> Double? {
        let answer = try curl(["--get", "--data-urlencode", "query=" + expression, "http://127.0.0.1:\(port)/api/v1/query"])
        guard let json = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
              let data = json["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
              let value = result.first?["value"] as? [Any], let text = value.last as? String else { return nil }
        return Double(text)
    }

    func testPrometheusScrapesTheServerAndTheServerDownAlertFires() throws {
        let prometheusBinary = try requiredService("VOCAB_TEST_PROMETHEUS", "Prometheus")
        let rules = VocabRunner.repository + "/docs/prometheus/vocab-alerts.yml"
        let promtool = URL(fileURLWithPath: prometheusBinary).deletingLastPathComponent().appendingPathComponent("promtool").path
        let checked = Process()
        checked.executableURL = URL(fileURLWithPath: promtool)
        checked.arguments = ["check", "rules", rules]
        checked.standardOutput = FileHandle.nullDevice
        try checked.run()
        checked.waitUntilExit()
        XCTAssertEqual(checked.terminationStatus, 0, "promtool check rules \(rules)")

        let alice = try newUser()
        let metricsPort = try freePort()
        let server = try startServer("metrics", tls: false, options: ["--metrics", "127.0.0.1:\(metricsPort)"])
        XCTAssertNotEqual(try curl([server + "/metrics"]).contains("vocab_http_requests_total"), true, "not on the public address")

        // Prometheus as docs/prometheus/prometheus.yml sets it up, scraping every second.
        let port = try freePort()
        let config = vocab.file("prometheus.yml")
        try """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files:
              - \(rules)
            scrape_configs:
              - job_name: vocab
                static_configs:
                  - targets: ["127.0.0.1:\(metricsPort)"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prometheusBinary)
        process.arguments = ["--config.file=" + config, "--storage.tsdb.path=" + vocab.file("prometheus-data"),
                             "--web.listen-address=127.0.0.1:\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        prometheus = process
        XCTAssertTrue(try waitUntil(60) { try query(port, "up{job=\"vocab\"}") == 1 }, "Prometheus scrapes the server")

        // A learner: her terminal syncs (the device API), her phone's page studies (next card, a grade).
        try signIn("alice", to: server, as: alice)
        try on("alice", ["book", "add", "B"]).expectSuccess()
        try on("alice", ["word", "add", "keen", "--book", "B", "--definition", "eager"]).expectSuccess()
        try syncs("alice")
        let jar = vocab.file("phone.cookies")
        let signedIn = try curl(["-w", "%{http_code}", "-o", "/dev/null", "-c", jar, "-H", "X-Vocab-Request: 1",
                                 "-d", #"{"user":"\#(alice)","password":"pw"}"#, server + "/api/signin"])
        XCTAssertEqual(signedIn, "200")
        for _ in 0..<5 { _ = try curl(["-b", jar, server + "/api/study"]) }
        XCTAssertTrue(try waitUntil(30) { (try query(port, "sum(vocab_http_requests_total{route=\"next_card\",status=\"200\"})") ?? 0) >= 5 },
                      "the next card's requests, counted")
        XCTAssertTrue(try waitUntil(30) { (try query(port, "sum(vocab_http_requests_total{route=\"device_push\"})") ?? 0) >= 1 },
                      "the terminal's push, counted")
        let quantile = try query(port, "histogram_quantile(0.99, sum by (le) (vocab_http_request_duration_seconds_bucket{route=\"next_card\"}))")
        XCTAssertNotNil(quantile, "a quantile of the next card's latency")
        XCTAssertFalse(quantile?.isNaN ?? true)
        XCTAssertTrue(try waitUntil(30) { (try query(port, "vocab_devices_signed_in") ?? 0) >= 2 }, "the session layer's gauges")
        // No label holds a user, a path with an id or an address.
        let exposition = try curl(["http://127.0.0.1:\(metricsPort)/metrics"])
        XCTAssertFalse(exposition.contains(alice), "no user name in a label")
        XCTAssertFalse(exposition.contains("127.0.0.1"), "no address in a label")

        // The server stops: Prometheus sees it down, and the alert fires (30 s after, as the rule says).
        let stopped = try XCTUnwrap(servers.first)
        stopped.interrupt()
        stopped.waitUntilExit()
        XCTAssertTrue(try waitUntil(20) { try query(port, "up{job=\"vocab\"}") == 0 }, "seen down")
        XCTAssertTrue(try waitUntil(90) {
            try curl(["http://127.0.0.1:\(port)/api/v1/alerts"]).contains(#""alertname":"VocabServerDown""#)
                && curl(["http://127.0.0.1:\(port)/api/v1/alerts"]).contains(#""state":"firing""#)
        }, "VocabServerDown fires")
    }
}

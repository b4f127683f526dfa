import VocabAnkiSync
import VocabCloudAPI
import Synchronization
import VocabCore

/// What a running server counts, for Prometheus (`vocab serve --metrics ADDR:PORT` serves it at
/// `/metrics`, in Prometheus' text format, on an address of its own): requests by route and
/// status, the hot routes' latency, refusals by cause, and gauges read when it is scraped.
/// Every label's values come from a bounded set (a route's name, a status, a `Refusal`'s
/// case): never a user, a path with an id, an address.
package final class ServerMetrics: Sendable {
    /// A figure read at each scrape: its name, help, and a value per label set; a gauge, or a
    /// counter kept elsewhere since the server started (its name then ends in `_total`).
    package struct Gauge: Sendable {
        package var name: String
        package var help: String
        package var values: [(labels: String, value: Double)]
        package var isCounter: Bool

        package init(name: String, help: String, values: [(labels: String, value: Double)], isCounter: Bool = false) {
            self.name = name
            self.help = help
            self.values = values
            self.isCounter = isCounter
        }
    }

    /// The routes whose latency is kept as a histogram (next card, a grade, a pull, a push).
    package let hotRoutes: Set<String>
    /// Upper bounds of the latency histogram's buckets, in seconds.
    package static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var requests: [String: Int] = [:]  // "route\u{0}status"
        var refusals: [String: Int] = [:]
        var latency: [String: Histogram] = [:]
    }

    private let state = Mutex(State())
    private let gauges = Mutex<[@Sendable () -> [Gauge]]>([])

    package init(hotRoutes: Set<String> = []) {
        self.hotRoutes = hotRoutes
    }

    /// A request answered by the server's handler: its route's name, its status, and the
    /// seconds from its last byte to its answer (waiting for a worker included).
    package func answered(route: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[route + "\u{0}" + String(status), default: 0] += 1
            guard hotRoutes.contains(route) else { return }
            var histogram = state.latency[route] ?? Histogram()
            if let bucket = Self.buckets.firstIndex(where: { seconds <= $0 }) { histogram.counts[bucket] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            state.latency[route] = histogram
        }
    }

    /// A refusal sent, by its cause (a `Refusal`'s case).
    package func refused(cause: String) {
        state.withLock { $0.refusals[cause, default: 0] += 1 }
    }

    /// Adds gauges read at every scrape (the server's connections, the cloud's, the stores…).
    package func watch(_ read: @escaping @Sendable () -> [Gauge]) {
        gauges.withLock { $0.append(read) }
    }

    /// Everything, in Prometheus' text exposition format (version 0.0.4).
    package func exposition() -> String {
        let (requests, refusals, latency) = state.withLock { ($0.requests, $0.refusals, $0.latency) }
        var lines: [String] = []
        lines.append("# HELP vocab_http_requests_total Requests answered by the server's handler, by route and status.")
        lines.append("# TYPE vocab_http_requests_total counter")
        for (key, count) in requests.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            lines.append("vocab_http_requests_total{route=\"\(parts[0])\",status=\"\(parts[1])\"} \(count)")
        }
        lines.append("# HELP vocab_http_request_duration_seconds Time from a hot route's request to its answer (waiting for a worker included).")
        lines.append("# TYPE vocab_http_request_duration_seconds histogram")
        for (route, histogram) in latency.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (bound, count) in zip(Self.buckets, histogram.counts) {
                cumulative += count
                lines.append("vocab_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(Self.number(bound))\"} \(cumulative)")
            }
            lines.append("vocab_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.count)")
            lines.append("vocab_http_request_duration_seconds_sum{route=\"\(route)\"} \(Self.number(histogram.sum))")
            lines.append("vocab_http_request_duration_seconds_count{route=\"\(route)\"} \(histogram.count)")
        }
        lines.append("# HELP vocab_refusals_total Refusals sent, by cause (the door's bounds, sign-in limits, the cloud, what was sent).")
        lines.append("# TYPE vocab_refusals_total counter")
        for (cause, count) in refusals.sorted(by: { $0.key < $1.key }) {
            lines.append("vocab_refusals_total{cause=\"\(cause)\"} \(count)")
        }
        for gauge in gauges.withLock({ $0 }).flatMap({ $0() }) {
            lines.append("# HELP \(gauge.name) \(gauge.help)")
            lines.append("# TYPE \(gauge.name) " + (gauge.isCounter ? "counter" : "gauge"))
            for (labels, value) in gauge.values {
                lines.append(gauge.name + (labels.isEmpty ? "" : "{\(labels)}") + " " + Self.number(value))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number as Prometheus reads it (no exponent for the figures it writes).
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : CFormat.string("%.6f", value)
    }

    /// A case name in Prometheus' label style: `nextCard` → `next_card`.
}

extension WebApp {
    /// A request's route as it is counted: the page's route (`next_card`), the device API's
    /// (`device_pull`), `page` for the page's files, `unknown` for anything else.
    package static func routeName(_ request: HTTPRequest) -> String {
        if AnkiSyncServer.serves(path: request.path) { return AnkiSyncCall.of(path: request.path)?.metricName ?? "unknown" }
        if request.path.hasPrefix(DeviceRoute.prefix) {
            return DeviceRoute.Shape.match(method: request.method, path: request.path).flatMap { deviceRouteNames[$0.shape] } ?? "unknown"
        }
        if let route = WebRoute.match(request)?.route { return pageRouteNames[route] ?? "unknown" }
        return request.path.hasPrefix("/api/") ? "unknown" : "page"
    }

    /// Each route's name, made once (not for every request).
    private static let deviceRouteNames = Dictionary(uniqueKeysWithValues: DeviceRoute.Shape.allCases.map {
        ($0, "device_" + String(describing: $0).snakeCased)
    })
    private static let pageRouteNames = Dictionary(uniqueKeysWithValues: WebRoute.allCases.map { ($0, String(describing: $0).snakeCased) })
}

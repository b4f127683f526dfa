import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The web app on a 100,000-word store (`vocab serve`, a real process): the first load of the
/// study page in a headless Chromium at a phone's size (bytes on the wire, time to a card shown);
/// the next card under load (`wrk`, 2 threads, 50 connections, 10 s) beside the same server
/// answering a static file of the page (sw.js, 1.3 KiB) in the same run; and the server's peak
/// memory, beside the same server on an empty store.
struct WebBenchmark {
    let options: BenchOptions

    /// A running `vocab serve`: its port, its first pairing code, its process.
    final class Server {
        let process = Process()
        private(set) var port = 0
        private(set) var code = ""

        let home: String

        init(executable: String, home: String, config: String) throws {
            self.home = home
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["serve", "--listen", "127.0.0.1:0"]
            process.environment = ProcessInfo.processInfo.environment.merging(["VOCAB_HOME": home, "XDG_CONFIG_HOME": config]) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            while port == 0 || code.isEmpty {
                let data = pipe.fileHandleForReading.availableData
                guard !data.isEmpty else { throw BenchError.message("vocab serve did not start: \(text)") }
                text += String(decoding: data, as: UTF8.self)
                if let range = text.range(of: #"Pairing code: \d{4}-\d{4}"#, options: .regularExpression) { code = text[range].filter(\.isNumber) }
                if let range = text.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression) { port = Int(text[range].split(separator: ":")[1]) ?? 0 }
            }
        }

        var url: String { "http://127.0.0.1:\(port)/" }

        /// The code that pairs the next device (each code pairs one): the server keeps it in its notice.
        var currentCode: String {
            ((try? String(contentsOfFile: home + "/web-serving", encoding: .utf8)) ?? "").split(separator: "\n").dropFirst().first.map(String.init) ?? code
        }

        /// Pairs a device; returns its cookie.
        func pair() throws -> String {
            let headers = NSTemporaryDirectory() + "vocab-bench-pair-\(UUID().uuidString)"
            defer { unlink(headers) }
            _ = try ChildProcess.measure("/usr/bin/curl", ["-s", "-D", headers, "-o", "/dev/null", "-X", "POST", "-H", "X-Vocab-Request: 1",
                                                           "-d", #"{"code":"\#(currentCode)"}"#, url + "api/pair"])
            let text = (try? String(contentsOfFile: headers, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("set-cookie: vocab_session=") }) else {
                throw BenchError.message("pairing with the server failed: \(text)")
            }
            return String(line.dropFirst("set-cookie: ".count).split(separator: ";")[0])
        }

        /// The process's peak resident memory so far, in MiB (VmHWM).
        var peakMiB: Double { process.statusMiB("VmHWM") }
        /// The process's resident memory now, in MiB (VmRSS).
        var residentMiB: Double { process.statusMiB("VmRSS") }

        func stop() {
            process.interrupt()
            process.waitUntilExit()
        }
    }

    func run() throws {
        guard let wrk = ChildProcess.which("wrk") else {
            BenchChecks.referenceMissing("web", "wrk is not installed (apt-get install wrk)", skipWith: "--skip-web")
            return
        }
        let vocab = try ChildProcess.vocabProgram()
        let work = NSTemporaryDirectory() + "vocab-bench-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work + "/config/vocab", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try #"{"backups": {"automatic": false}}"#.write(toFile: work + "/config/vocab/config.json", atomically: true, encoding: .utf8)
        let csv = work + "/words.csv"
        try DataSet.writeCSV(rows: options.rows, to: csv)
        let big = work + "/big", empty = work + "/empty"
        _ = try ChildProcess.measure(vocab, ["import", csv, "--book", "Big"], environment: ["VOCAB_HOME": big, "XDG_CONFIG_HOME": work + "/config"])
        _ = try ChildProcess.measure(vocab, ["book", "add", "Empty"], environment: ["VOCAB_HOME": empty, "XDG_CONFIG_HOME": work + "/config"])

        let server = try Server(executable: vocab, home: big, config: work + "/config")
        defer { server.stop() }
        try firstLoad(server, work: work)
        let cookie = try server.pair()
        let card = try Self.load(wrk, server.url + "api/study", cookie: cookie, work: work)
        let file = try Self.load(wrk, server.url + "sw.js", cookie: nil, work: work)
        let ratio = card.requests / max(file.requests, 1)
        print(String(format: "web next card under load (wrk 2 threads, 50 connections, 10 s), %d-word store: %.0f requests/s, p99 %.1f ms; "
                     + "the static sw.js (1.3 KiB) %.0f requests/s, p99 %.1f ms; ratio %.2fx (target >= 0.3x, p99 < 20 ms)",
                     options.rows, card.requests, card.p99, file.requests, file.p99, ratio))
        _ = BenchChecks.require(card.errors == 0, "web: \(card.errors) next-card requests failed under load (answers or socket errors)")
        _ = BenchChecks.require(file.errors == 0, "web: \(file.errors) requests of the static file failed under load (answers or socket errors)")
        BenchChecks.target("web next card: \(String(format: "%.2f", ratio))x the static file", ratio, atLeast: 0.3)
        BenchChecks.target("web next card under load: p99 \(String(format: "%.1f", card.p99)) ms", card.p99, atMost: 20)
        let memory = server.peakMiB
        let idle = try Server(executable: vocab, home: empty, config: work + "/config")
        let idleCookie = try idle.pair()
        _ = try Self.load(wrk, idle.url + "api/study", cookie: idleCookie, work: work)
        let emptyMemory = idle.peakMiB
        idle.stop()
        print(String(format: "web server peak memory after that load, %d-word store: %.1f MiB; empty store %.1f MiB, ratio %.2fx (target < 64 MiB)",
                     options.rows, memory, emptyMemory, memory / max(emptyMemory, 1)))
        BenchChecks.target("web server peak memory, \(options.rows)-word store: \(String(format: "%.1f", memory)) MiB", memory, atMost: 64)
    }

    /// The study page's first load in headless Chromium (scripts/bench_web.py), best of the runs.
    private func firstLoad(_ server: Server, work: String) throws {
        let python = ProcessInfo.processInfo.environment["VOCAB_BENCH_WEB_PYTHON"] ?? "/opt/vocab-test-python/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python), (try? ChildProcess.measure(python, ["-c", "import selenium"])) != nil,
              ChildProcess.which("chromium") != nil else {
            BenchChecks.referenceMissing("web first load", "no Chromium with Selenium (\(python)); .ci/run installs them", skipWith: "--skip-web")
            return
        }
        let output = work + "/first-load.txt"
        _ = try ChildProcess.measure(python, [ChildProcess.scriptPath("bench_web.py"), server.url, server.code, String(options.runs)],
                                     stdoutPath: output)
        let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
        let bytes = lines.compactMap { $0.hasPrefix("bytes ") ? Int($0.dropFirst(6)) : nil }
        let times = lines.compactMap { $0.hasPrefix("card-ms ") ? Int($0.dropFirst(8)) : nil }
        guard BenchChecks.require(!bytes.isEmpty && !times.isEmpty, "web: the first load showed no card") else { return }
        print(String(format: "web first load of the study page, %d-word store, headless Chromium at 390x844: %.1f KiB on the wire "
                     + "(target < 100 KiB), a card shown after %d ms best, every run %@ ms (target < 1 s)",
                     options.rows, Double(bytes.min() ?? 0) / 1024, times.min() ?? 0, times.map(String.init).joined(separator: "/")))
        BenchChecks.target("web first load: \(String(format: "%.1f", Double(bytes.min() ?? 0) / 1024)) KiB on the wire", Double(bytes.min() ?? 0) / 1024, atMost: 100)
        BenchChecks.target("web first load: a card shown after \(times.max() ?? 0) ms (slowest run)", Double(times.max() ?? 0), atMost: 1_000)
    }

    /// `wrk` on one URL (after two seconds to warm up): requests per second, the 99th percentile in ms, failed requests.
    /// `script`: a wrk Lua script making each request (a cookie of its own, say).
    static func load(_ wrk: String, _ url: String, cookie: String?, script: String? = nil, threads: Int = 2, connections: Int = 50,
                     work: String) throws -> (requests: Double, p99: Double, errors: Int) {
        let output = work + "/wrk.txt"
        var arguments = ["-t\(threads)", "-c\(connections)", "--latency"]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        if let script { arguments += ["-s", script] }
        // Two seconds first, not counted: the server's readers opened and warm, as in use.
        _ = try ChildProcess.measure(wrk, arguments + ["-d2s", url])
        _ = try ChildProcess.measure(wrk, arguments + ["-d10s", url], stdoutPath: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        func number(after label: String) -> String? {
            text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
        }
        let requests = Double(number(after: "Requests/sec:") ?? "") ?? 0
        let p99Text = number(after: "99%") ?? "0ms"
        let p99: Double
        if p99Text.hasSuffix("us") { p99 = (Double(p99Text.dropLast(2)) ?? 0) / 1000 }
        else if p99Text.hasSuffix("ms") { p99 = Double(p99Text.dropLast(2)) ?? 0 }
        else if p99Text.hasSuffix("s") { p99 = (Double(p99Text.dropLast(1)) ?? 0) * 1000 }
        else { p99 = 0 }
        // Failed answers, and wrk's socket errors ("Socket errors: connect 0, read 0, write 0, timeout 0").
        let lines = text.split(separator: "\n")
        var errors = lines.first { $0.contains("Non-2xx or 3xx responses:") }
            .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? 0
        if let socket = lines.first(where: { $0.contains("Socket errors:") }) {
            errors += socket.split(separator: ":").dropFirst().joined(separator: ":").split(separator: ",")
                .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        }
        guard requests > 0 else { throw BenchError.message("wrk printed: \(text)") }
        if errors > 0 {
            print("  wrk: " + lines.filter { $0.contains("Non-2xx") || $0.contains("Socket errors") }.joined(separator: "; "))
        }
        return (requests, p99, errors)
    }
}

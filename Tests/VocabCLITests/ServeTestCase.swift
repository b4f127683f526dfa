import Foundation
import TestServices
import VocabStore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A test that runs the real `vocab serve` on a loopback port and talks plain HTTP/1.1 to it.
class ServeTestCase: EndToEndTestCase {
    var server: Process?
    var output: FileHandle?
    var port: UInt16 = 0
    var lines: [String] = []
    /// Anki apps paired so far (each `login` takes the next pairing code).
    private var ankiAppsPaired = 0

    override func tearDown() {
        if let server, server.isRunning {
            server.interrupt()
            server.waitUntilExit()
        }
        super.tearDown()
    }

    /// Starts `vocab serve` (on any free port unless given); returns once it listens.
    func startServer(listening requested: UInt16 = 0, options: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: VocabRunner.binary)
        process.arguments = ["serve", "--listen", "127.0.0.1:\(requested)"] + options
        var environment = ProcessInfo.processInfo.environment
        environment["VOCAB_HOME"] = vocab.home
        environment["XDG_CONFIG_HOME"] = vocab.file("config")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        output = pipe.fileHandleForReading
        while port == 0 {
            let line = try XCTUnwrap(readLine(), "the server said: \(lines)")
            if let range = line.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression) {
                port = UInt16(line[range].split(separator: ":")[1]) ?? 0
            }
        }
    }

    /// The next line the server printed (waits for it).
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while let output {
            let byte = output.readData(ofLength: 1)
            guard let first = byte.first else { return nil }
            if first == 0x0A { break }
            bytes.append(first)
        }
        let line = String(decoding: bytes, as: UTF8.self)
        lines.append(line)
        return line
    }

    /// The newest pairing code the server printed (reads on to the next one when `next`).
    /// Runs Anki's own client `app` (a collection of its own) against this server through
    /// `steps`, a first `login` with the next pairing code; unless `refusals` are expected, fails
    /// when a step is refused.
    @discardableResult
    func ankiApp(_ app: String, _ steps: [String], python: String, refusals: Bool = false) throws -> [[String: Any]] {
        var code = ""
        if steps.first == "login" {
            code = try pairingCode(next: ankiAppsPaired > 0)
            ankiAppsPaired += 1
        }
        let lines = try ankiApp(python: python, folder: vocab.file("anki-" + app), server: "http://127.0.0.1:\(port)", user: "me",
                                password: code, steps: steps, refusals: refusals)
        try ankiWorkDone()
        return lines
    }

    /// Waits until the server has done what the Anki apps' calls left past their answers (the
    /// words follow a sync, an upload, a moment after the app is answered): its store's
    /// `anki_pending` is empty.
    func ankiWorkDone() throws {
        for _ in 0..<600 {
            let store = try Database(path: vocab.home + "/vocab.sqlite", create: false, readOnly: true)
            if try store.integer("SELECT count(*) FROM anki_pending") == 0 { return }
            usleep(50_000)
        }
        XCTFail("the server never did what the Anki apps' calls left")
    }

    func pairingCode(next: Bool = false) throws -> String {
        if next || !lines.contains(where: { $0.hasPrefix("Pairing code: ") }) {
            while let line = readLine(), !line.hasPrefix("Pairing code: ") {}
        }
        let line = try XCTUnwrap(lines.last { $0.hasPrefix("Pairing code: ") })
        return line.dropFirst("Pairing code: ".count).filter(\.isNumber)
    }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    /// One request over a fresh connection (Connection: close), read to the end.
    func send(_ method: String, _ path: String, body: String? = nil, headers extra: [String: String] = [:],
                      rawBody: [UInt8]? = nil) throws -> Reply {
        guard let connection = LoopbackConnection(port: port, waitSeconds: 300) else { throw POSIXError(.ECONNREFUSED) }
        let payload = rawBody ?? body.map { Array($0.utf8) } ?? []
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        if !payload.isEmpty || method == "POST" { head += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n" }
        connection.send(bytes: Array((head + "\r\n").utf8) + payload)
        let response = connection.receiveAll()
        let text = String(decoding: response, as: UTF8.self)
        let (headPart, bodyPart) = text.range(of: "\r\n\r\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
        let headLines = headPart.components(separatedBy: "\r\n")
        let status = Int(headLines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: bodyPart)
    }

    /// Pairs and returns the headers every later write sends: the cookie, the app's header, this Origin.
    func pairForWrites(next: Bool = false) throws -> [String: String] {
        var device = try pair(next: next)
        device["X-Vocab-Request"] = "1"
        device["Origin"] = "http://127.0.0.1:\(port)"
        return device
    }

    /// Pairs and returns the cookie header every later request sends.
    func pair(next: Bool = false) throws -> [String: String] {
        let reply = try send("POST", "/api/pair", body: #"{"code": "\#(try pairingCode(next: next))"}"#, headers: ["X-Vocab-Request": "1"])
        XCTAssertEqual(reply.status, 204, reply.body)
        let cookie = try XCTUnwrap(reply.headers["set-cookie"])
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
        return ["Cookie": String(cookie.split(separator: ";")[0])]
    }
}

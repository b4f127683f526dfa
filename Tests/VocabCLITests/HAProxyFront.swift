import Foundation
import TestServices
import XCTest

/// HAProxy as docs/haproxy.cfg ships it, in front of a test's Vocab servers: HTTPS on `front`
/// (trusting `certificate`) and, for clients that speak no TLS (a test's raw sockets), the same
/// frontend's rules on a plain port beside it.
struct HAProxyFront {
    let front: String
    let plainPort: Int
    let certificate: String
}

extension CloudEndToEndTestCase {
    /// Starts HAProxy with docs/haproxy.cfg, its ports, certificate and `backends` put in, and
    /// waits until it answers; `namingTheBackend`: each answer names the server that gave it.
    func startHAProxy(before backends: [String], namingTheBackend: Bool = false) throws -> HAProxyFront {
        let haproxy = try requiredService("VOCAB_TEST_HAPROXY", "HAProxy")
        let (certificate, key) = try makeCertificate()
        let pem = vocab.file("haproxy.pem")
        try Data((try String(contentsOfFile: certificate, encoding: .utf8) + String(contentsOfFile: key, encoding: .utf8)).utf8)
            .write(to: URL(fileURLWithPath: pem))
        let port = try freePort()
        var plainPort = try freePort()
        while plainPort == port { plainPort = try freePort() }
        var config = try String(contentsOfFile: VocabRunner.repository + "/docs/haproxy.cfg", encoding: .utf8)
        config = config.replacingOccurrences(of: "bind :443 ssl crt /etc/haproxy/vocab.pem",
                                             with: "bind 127.0.0.1:\(port) ssl crt \(pem)\n    bind 127.0.0.1:\(plainPort)")
        for (index, backend) in backends.enumerated() {
            config = config.replacingOccurrences(of: "127.0.0.1:808\(index + 1)", with: String(backend.dropFirst(7)))
        }
        // Fewer servers than the file names: the others' lines go.
        config = config.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("127.0.0.1:808") }.joined(separator: "\n")
        XCTAssertFalse(config.contains("/etc/haproxy"), config)
        if namingTheBackend {
            config = config.replacingOccurrences(of: "    hash-type consistent\n", with: "    hash-type consistent\n    http-response set-header X-Vocab-Backend %[srv_name]\n")
            XCTAssertTrue(config.contains("X-Vocab-Backend"), "docs/haproxy.cfg balances by a hash of the device")
        }
        let file = vocab.file("haproxy.cfg")
        try Data(config.utf8).write(to: URL(fileURLWithPath: file))
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: haproxy)
        proxy.arguments = ["-f", file, "-db"]
        proxy.standardOutput = FileHandle.nullDevice
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        servers.append(proxy)
        let front = "https://127.0.0.1:\(port)"
        XCTAssertTrue(waitUntil(10) {
            (try? curl(["-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, front + "/api/v1/health"])) == "200"
        }, "HAProxy answers, a server behind it up")
        return HAProxyFront(front: front, plainPort: plainPort, certificate: certificate)
    }

    /// A device's `Authorization` header, from the login its terminal keeps.
    func bearer(_ device: String) throws -> String {
        let login = try String(contentsOfFile: vocab.file("\(device)/config/vocab/cloud.json"), encoding: .utf8)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(login.utf8)) as? [String: Any])
        return "Authorization: Bearer \(object["user"] as? String ?? "").\(object["password"] as? String ?? "")"
    }
}

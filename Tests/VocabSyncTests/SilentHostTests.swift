import Glibc
import VocabCloud
import VocabSync
import VocabCloudAPI
import XCTest

/// A cloud's first host that takes the connection and never answers (its machine gone behind
/// a network that drops nothing, its server stopped): the next host is still tried.
final class SilentHostTests: XCTestCase {
    /// A TCP port on loopback that the kernel lets connect (it listens) and nothing ever answers.
    private func silentPort() throws -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    func testASilentFirstHostLeavesTheNextOneTried() throws {
        let postgres = try TestPostgres()
        let silent = try silentPort()
        defer { close(silent.socket) }
        let real = postgres.adminLogin.address
        var both = real
        both.host = "127.0.0.1"
        both.port = silent.port
        both.otherHosts = [ServerAddress.HostAndPort(host: real.host, port: real.port)]
        both.targetSessionAttributes = "read-write"
        let timeouts = CloudTimeouts(connectSeconds: 2, statementSeconds: 10, lockSeconds: 5)

        let connection = try PostgresConnection(both, password: postgres.adminLogin.password, timeouts: timeouts)
        XCTAssertEqual(try connection.execute("SELECT 1").first?.first, "1", "connected to the second host")

        // The silent host alone: refused as unreachable once its wait ran out, not waited on for ever.
        var alone = both
        alone.otherHosts = []
        XCTAssertThrowsError(try PostgresConnection(alone, password: postgres.adminLogin.password, timeouts: timeouts)) { error in
            guard case CloudError.unreachable? = error as? CloudError else { return XCTFail("\(error)") }
        }
    }
}

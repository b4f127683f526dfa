#if canImport(Glibc)
import Glibc
#endif

/// The part of a client's address that one holder controls, as limits key it: a whole IPv4
/// address, but an IPv6 address's /64 (one customer's network: a proxy forwarding IPv6 would
/// otherwise hand a guesser 2^64 fresh addresses). An IPv4 address written as IPv6
/// (`::ffff:192.0.2.1`) is that IPv4 address; text that is no address is kept as it is.
public enum AddressNetwork {
    public static func of(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

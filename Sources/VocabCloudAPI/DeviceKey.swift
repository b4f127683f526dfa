import FoundationEssentials
import Glibc
import VocabCore

/// A device signed in to a learner's account.
public struct CloudDevice: Sendable, Equatable {
    /// Its id on the cloud: what signs it out.
    public var id: String
    public var label: String
    /// When it signed in, and when it was last seen syncing (Unix seconds).
    public var created: Int64
    public var seen: Int64?
    /// The device asking.
    public var isThis: Bool

    public init(id: String, label: String, created: Int64, seen: Int64?, isThis: Bool) {
        self.id = id
        self.label = label
        self.created = created
        self.seen = seen
        self.isThis = isThis
    }
}

/// What a device proves itself with: its id (`vd_` and 32 hex digits) and its secret (64 hex
/// digits, 256 random bits, which only the device keeps; the cloud keeps its SHA-256).
public struct DeviceKey: Sendable, Equatable, Hashable {
    public var id: String
    public var secret: String

    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// `ID.SECRET` (a device's `Authorization: Bearer` value, a browser's cookie) when both
    /// parts have their form; nil otherwise.
    public init?(token: String) {
        guard token.utf8.count == 35 + 1 + 64 else { return nil }
        let id = String(token.prefix(35)), dot = token.dropFirst(35).first, secret = String(token.suffix(64))
        let hex = { (text: Substring) in text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }
        guard id.hasPrefix("vd_"), hex(id.dropFirst(3)), dot == ".", hex(Substring(secret)) else { return nil }
        self.init(id: id, secret: secret)
    }

    public var token: String { id + "." + secret }
}

/// What a device is called when it signs in.
public enum DeviceLabel {
    /// What a device is called when it signs in: this machine's name and the front end.
    public static func of(_ frontEnd: String) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "this computer"
        return "\(frontEnd) on \(host)"
    }
}

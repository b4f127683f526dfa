import FoundationEssentials
import VocabStore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// What a running web server tells the other front ends of the same data folder: the address
/// a phone opens and the pairing code it types now (the window shows both). Kept in the data
/// folder, readable by its user only, replaced whole with each new code, removed when the
/// server stops. It is not a credential: a code pairs one device once and the server that made
/// it is on this machine.
public struct ServingNotice: Sendable, Equatable {
    public var address: String
    public var code: String

    public init(address: String, code: String) {
        self.address = address
        self.code = code
    }

    static func path(in folder: String) -> String { folder + "/web-serving" }

    /// The notice of the server running on `folder`, if one is.
    public static func current(in folder: String) -> ServingNotice? {
        guard let text = try? String(contentsOfFile: path(in: folder), encoding: .utf8) else { return nil }  // none: no server
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.count >= 2, lines[1].count == 8, lines[1].allSatisfy(\.isNumber) else { return nil }
        return ServingNotice(address: lines[0], code: lines[1])
    }

    /// Writes the notice (0600 from creation, then renamed over the old one).
    public func publish(in folder: String) {
        do {
            try AtomicFile.replace(Self.path(in: folder), permissions: 0o600, with: Array("\(address)\n\(code)\n".utf8))
        } catch {
            // Not written: the terminal still shows the address and the code.
        }
    }

    /// Removes the notice (the server stopped).
    public static func withdraw(in folder: String) {
        unlink(path(in: folder))
    }

    /// The code as people read it: "1234-5678".
    public var spacedCode: String { Self.spaced(code) }

    /// A pairing code as people read it: "12345678" → "1234-5678".
    public static func spaced(_ code: String) -> String { "\(code.prefix(4))-\(code.dropFirst(4))" }
}

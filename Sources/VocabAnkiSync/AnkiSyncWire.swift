import FoundationEssentials
import VocabCore

/// What Anki's sync protocol carries, as values: the header every request sends, and the
/// bodies of the calls a Vocab server answers (named as the protocol names them).
public enum AnkiSyncWire {
    /// The `anki-sync` header: `{"v": version, "k": host key, "c": client version, "s": session}`.
    public struct Header: Codable, Equatable, Sendable {
        public var v: Int
        public var k: String
        public var c: String
        public var s: String

        public init(v: Int, k: String, c: String, s: String) {
            self.v = v
            self.k = k
            self.c = c
            self.s = s
        }

        /// The header's JSON read, or nil when it is not the protocol's.
        public static func parse(_ text: String) -> Header? {
            guard text.utf8.count <= 4_096 else { return nil }
            return try? JSONDecoder().decode(Header.self, from: Data(text.utf8))
        }
    }

    /// `hostKey`'s body: the user name and password.
    public struct HostKeyRequest: Codable, Sendable {
        public var u: String
        public var p: String
    }

    /// `hostKey`'s answer: the key the app sends as `k` from then on.
    public struct HostKeyAnswer: Codable, Sendable {
        public var key: String
    }

    /// `meta`'s answer: where the server's collection stands.
    public struct MetaAnswer: Codable, Equatable, Sendable {
        /// When it last changed (ms); an app whose collection has the same knows nothing changed.
        public var mod: Int64
        /// When its schema last changed (ms); an app whose differs must sync in full.
        public var scm: Int64
        public var usn: Int64
        /// The server's clock (s): an app more than 5 minutes off is told so.
        public var ts: Int64
        /// A message the app shows; with `cont` false it stops there.
        public var msg: String
        public var cont: Bool
        public var hostNum: Int
        public var empty: Bool
        public var media_usn: Int64
    }

    /// Media's answers are wrapped: `{"data": …, "err": ""}`, or `{"err": "why"}`.
    public struct MediaAnswer<T: Encodable>: Encodable {
        public var data: T
        public var err = ""
    }

    /// `msync/begin`'s data: the media's update number and the key.
    public struct MediaBegin: Codable, Sendable {
        public var usn: Int64
        public var sk: String
    }

    /// A media refusal the app shows (`{"err": …}`).
    public struct MediaRefusal: Codable, Sendable {
        public var err: String
    }

    /// JSON of a value (what the protocol's bodies are before compression).
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        (try? JSONBytes.encode(value)) ?? Array("{}".utf8)
    }
}

import CSodium
import VocabCloudAPI
import VocabCore

/// What the cloud keeps of a learner's password, and the check of a password against it —
/// no learner is a database role, so PostgreSQL no longer checks passwords (issue 39):
///
/// - **Argon2id** (libsodium's `crypto_pwhash_str`, its "interactive" limits: 2 passes, 64 MiB),
///   a string that holds its own salt and limits: what every new password is kept as.
/// - **PostgreSQL's SCRAM-SHA-256 verifier** (`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`),
///   copied from `pg_authid` when a cloud of learner roles is upgraded, so that nobody has to
///   choose a new password: right when SHA-256(HMAC(PBKDF2-HMAC-SHA-256(password, salt,
///   iterations), "Client Key")) is StoredKey (RFC 5802, RFC 7677), compared in constant time;
///   replaced by Argon2id at the first sign-in that passes.
public enum PasswordVerifier {
    /// A password checked against a kept verifier.
    public enum Check: Equatable, Sendable {
        case wrong
        /// Right; `rehash`: keep `PasswordVerifier.make(password)` instead (an older kind or limits).
        case right(rehash: Bool)
    }

    public enum Failure: Error, Equatable {
        /// libsodium is not installed.
        case libraryMissing
        /// Hashing failed (the memory Argon2id needs could not be had).
        case hashingFailed
    }

    /// The verifier to keep for `password` (Argon2id; a new random salt each time).
    public static func make(_ password: String) throws -> String {
        try ready()
        var out = [CChar](repeating: 0, count: vocab_pwhash_strbytes)
        let bytes = Array(password.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                vocab_crypto_pwhash_str(&out, $0.baseAddress, UInt64(bytes.count), vocab_pwhash_opslimit, vocab_pwhash_memlimit)
            }
        }
        guard status == 0 else { throw Failure.hashingFailed }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Checks `password` against `stored` (Argon2id or a SCRAM-SHA-256 verifier). A verifier of
    /// another kind, or one that cannot be read, is never right.
    public static func check(_ password: String, against stored: String) throws -> Check {
        try ready()
        if stored.hasPrefix("SCRAM-SHA-256$") {
            return scramMatches(password, stored) ? .right(rehash: true) : .wrong
        }
        guard stored.hasPrefix("$argon2id$") else { return .wrong }
        let bytes = Array(password.utf8)
        let verified = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { vocab_crypto_pwhash_str_verify(stored, $0.baseAddress, UInt64(bytes.count)) }
        }
        guard verified == 0 else { return .wrong }
        return .right(rehash: vocab_crypto_pwhash_str_needs_rehash(stored, vocab_pwhash_opslimit, vocab_pwhash_memlimit) != 0)
    }

    private static func ready() throws {
        guard vocab_libsodium_available() != 0, vocab_sodium_init() >= 0 else { throw Failure.libraryMissing }
    }

    // MARK: SCRAM-SHA-256

    /// Whether `password` gives the verifier's StoredKey. PostgreSQL prepares the password with
    /// SASLprep first, which changes nothing of an ASCII password nor of Hangul typed as
    /// syllables (NFKC leaves them as they are); a password it would change is not right here.
    static func scramMatches(_ password: String, _ verifier: String) -> Bool {
        let parts = verifier.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return false }
        let parameters = parts[1].split(separator: ":"), keys = parts[2].split(separator: ":")
        guard parameters.count == 2, keys.count == 2, let iterations = Int(parameters[0]), iterations > 0, iterations <= 10_000_000,
              let salt = Base64.decode(String(parameters[1])), let storedKey = Base64.decode(String(keys[0])), storedKey.count == 32 else {
            return false
        }
        let salted = pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations)
        let clientKey = hmac(key: salted, Array("Client Key".utf8))
        var computed = [UInt8](repeating: 0, count: 32)
        _ = vocab_crypto_hash_sha256(&computed, clientKey, UInt64(clientKey.count))
        return vocab_sodium_memcmp(computed, storedKey, 32) == 0
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        var out = [UInt8](repeating: 0, count: 32)
        _ = vocab_crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = vocab_crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        _ = vocab_crypto_auth_hmacsha256_final(&state, &out)
        return out
    }

    /// PBKDF2-HMAC-SHA-256 (RFC 8018), one 32-byte block: what SCRAM-SHA-256 salts with.
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var block = hmac(key: password, salt + [0, 0, 0, 1])
        var result = block
        for _ in 1..<iterations {
            block = hmac(key: password, block)
            for index in 0..<32 { result[index] ^= block[index] }
        }
        return result
    }
}

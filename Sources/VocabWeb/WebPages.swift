import FoundationEssentials
import VocabCore

/// The web app's files, inside the binary (`Pages/`, embedded at build time by the
/// EmbedWebPages plugin): HTML, CSS and JavaScript written by hand (ES modules, no framework,
/// no build step), the manifest, the service worker and the icons. Served by name only, gzip-
/// compressed to a browser that takes it, with a strong ETag (an unchanged file costs a 304).
enum WebPages {
    struct File: Sendable {
        let type: String
        let plain: [UInt8]
        let gzip: [UInt8]
        /// A strong validator: the SHA-256 of the plain bytes (its first 16 bytes, hex).
        let etag: String
    }

    /// Each file by its path ("/app.js"); "/" is "/index.html".
    static let files: [String: File] = Dictionary(uniqueKeysWithValues: embedded.map { name, encoded in
        let plain = [UInt8](Data(base64Encoded: encoded.plain) ?? Data())
        let gzip = [UInt8](Data(base64Encoded: encoded.gzip) ?? Data())
        return ("/" + name, File(type: type(of: name), plain: plain, gzip: gzip, etag: "\"\(SHA256.hex(plain).prefix(32))\""))
    })

    static func type(of name: String) -> String {
        switch FilePath.fileExtension(of: name) {
        case "html": return "text/html; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "webmanifest": return "application/manifest+json"
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        default: return "application/octet-stream"
        }
    }

    /// What the first load of a page costs on the wire: the shell's files as sent compressed.
    static var shellBytes: Int { files.values.reduce(0) { $0 + min($1.gzip.count, $1.plain.count) } }
}

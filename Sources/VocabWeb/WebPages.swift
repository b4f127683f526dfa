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

        /// A file of `type`, sent as `gzip` to a browser that takes it when that is smaller.
        init(plain: [UInt8], type: String, gzip: [UInt8] = []) {
            self.type = type
            self.plain = plain
            self.gzip = gzip
            etag = "\"\(SHA256.hex(plain).prefix(32))\""
        }
    }

    /// Each file by its path ("/app.js"); "/" is "/index.html". The service worker is written
    /// here from the embedded files (`serviceWorker`), and `/favicon.ico` is the small icon.
    static let files: [String: File] = {
        var files = Dictionary(uniqueKeysWithValues: embedded.map { name, encoded in
            ("/" + name, File(plain: [UInt8](Data(base64Encoded: encoded.plain) ?? Data()), type: type(of: name),
                              gzip: [UInt8](Data(base64Encoded: encoded.gzip) ?? Data())))
        })
        if let worker = files["/sw.js"] { files["/sw.js"] = File(plain: serviceWorker(worker.plain, shell: files), type: worker.type) }
        if let icon = files["/icon-192.png"] { files["/favicon.ico"] = icon }
        return files
    }()

    /// The files a phone keeps to open the app offline: every page file but the worker itself.
    static func shellFiles(_ files: [String: File]) -> [String] {
        ["/"] + files.keys.filter { $0 != "/sw.js" && $0 != "/index.html" && $0 != "/favicon.ico" }.sorted()
    }

    /// `worker` (Pages/sw.js) with its first two lines written from `shell`: the cache's name
    /// (from every file's hash: any change to any file makes a new cache, and the old one
    /// goes) and the list of files to keep.
    static func serviceWorker(_ worker: [UInt8], shell: [String: File]) -> [UInt8] {
        let names = shellFiles(shell)
        let version = SHA256.hex(Array(names.map { "\($0) \(shell[$0 == "/" ? "/index.html" : $0]?.etag ?? "")" }.joined(separator: "\n").utf8))
        let head = "const SHELL = \"vocab-shell-\(version.prefix(12))\";\nconst FILES = [" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "];\n"
        let rest = String(decoding: worker, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("const SHELL") || $0.hasPrefix("const FILES") || $0.hasPrefix("//") }
        return Array((head + rest.joined(separator: "\n")).utf8)
    }

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
    static var shellBytes: Int { files.values.reduce(0) { $0 + ($1.gzip.isEmpty ? $1.plain.count : min($1.gzip.count, $1.plain.count)) } }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Anki's apps syncing (`vocab-bench anki-sync [--notes N] [--changes N] [--keep]`): one package
/// of `notes` notes with 4 reviews each, made by Anki's own Python package, is what both servers
/// hold — `vocab serve` a store that imported it, Anki's own server (`python -m anki.syncserver`)
/// a collection a client uploaded whole. Against each, Anki's own client (scripts/bench_anki_sync.py)
/// times the first full download of an empty collection (asking and downloading together; the
/// median of six, the round's first and five more in a row after it; the Vocab server's each once
/// it has made the file ready, as it does when started and after each change — and, beside it with
/// no target, one asked of a server as it starts, with nothing ready), a
/// normal sync of `changes` new notes up, one of `changes` notes another client added, down (each
/// the median of five turns), and the full upload of the collection (over a Vocab store that
/// holds its words already); the Vocab server's memory is read after each of the five downloads in
/// a row.
/// Targets: every figure at most Anki's server's, the Vocab server's peak memory during the
/// round under twice the collection's size, and its memory after the fifth download in a row
/// within a quarter of the collection of what it was after the first.
struct AnkiSyncBenchmark {
    var notes = 50_000
    var changes = 100
    var keep = false
    /// How many full downloads in a row the server's memory is watched over.
    let successiveDownloads = 5

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--notes", "--changes":
                guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
                    throw BenchError.message("\(arguments[index]) needs a positive number")
                }
                if arguments[index] == "--notes" { notes = value } else { changes = value }
                index += 1
            case "--keep": keep = true
            default: throw BenchError.message("unknown option \(arguments[index]) for anki-sync (--notes N, --changes N, --keep)")
            }
            index += 1
        }
    }

    func run() throws {
        let python = ProcessInfo.processInfo.environment["VOCAB_BENCH_ANKI_PYTHON"] ?? "/opt/vocab-test-python/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? ChildProcess.measure(python, ["-c", "import anki.syncserver"])) != nil else {
            BenchChecks.referenceMissing("anki-sync", "no Python with Anki's package at \(python); .ci/run installs one", skipWith: "--skip-anki")
            return
        }
        let work = NSTemporaryDirectory() + "vocab-bench-anki-sync-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if keep { print("kept: \(work)") } else { try? FileManager.default.removeItem(atPath: work) } }
        let package = work + "/sync.apkg"
        let made = try ChildProcess.measure(python, [ChildProcess.scriptPath("bench_anki.py"), "make", package, String(notes)])
        print(String(format: "data: %d Anki notes with 4 reviews each, made by Anki in %.0f s", notes, made.seconds))
        let script = ChildProcess.scriptPath("bench_anki_sync.py")
        func client(_ arguments: [String]) throws -> [String: Any] {
            let output = work + "/client-\(UUID().uuidString).json"
            _ = try ChildProcess.measure(python, [script] + arguments, stdoutPath: output)
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        }

        // Anki's own server, given the collection by a full upload.
        let port = try Self.freePort()
        let anki = Process()
        anki.executableURL = URL(fileURLWithPath: python)
        anki.arguments = ["-m", "anki.syncserver"]
        anki.environment = ProcessInfo.processInfo.environment.merging([
            "SYNC_USER1": "bench:pw", "SYNC_BASE": work + "/anki-server", "SYNC_HOST": "127.0.0.1", "SYNC_PORT": String(port),
        ]) { $1 }
        anki.standardOutput = FileHandle.nullDevice
        anki.standardError = FileHandle.nullDevice
        try anki.run()
        defer { anki.terminate(); anki.waitUntilExit() }
        try Self.waitForListener(port: port)
        let ankiEndpoint = "http://127.0.0.1:\(port)/"
        for folder in ["upload", "round/one", "round/two"] {
            _ = try client(["login", ankiEndpoint, "bench", "pw", work + "/anki/" + folder])
        }
        let upload = (try client(["upload", ankiEndpoint, package, work + "/anki/upload"]))["upload"] as? Double ?? 0
        let reference = try client(["round", ankiEndpoint, work + "/anki/round", String(changes)])
        // Full downloads one after another (a learner's apps each starting over with an empty
        // collection): with the round's first, the figure is their median.
        var theirDownloads = [reference["download"] as? Double ?? 0]
        for turn in 1...successiveDownloads {
            let folder = work + "/anki/again\(turn)"
            _ = try client(["login", ankiEndpoint, "bench", "pw", folder])
            theirDownloads.append(try client(["download", ankiEndpoint, folder])["download"] as? Double ?? 0)
        }

        // Vocab's server of one learner, on a store that imported the same package.
        let vocab = try ChildProcess.vocabProgram()
        let environment = ["VOCAB_HOME": work + "/vocab-home", "XDG_CONFIG_HOME": work + "/config", "VOCAB_BACKGROUND": "off"]
        _ = try ChildProcess.measure(vocab, ["import", package], environment: environment)
        try FileManager.default.copyItem(atPath: work + "/vocab-home", toPath: work + "/vocab-cold-home")
        let server = try WebBenchmark.Server(executable: vocab, home: work + "/vocab-home", config: work + "/config")
        defer { server.stop() }
        let vocabEndpoint = server.url + "anki/"
        for folder in ["round/one", "round/two", "upload"] {
            _ = try client(["login", vocabEndpoint, "me", server.currentCode, work + "/vocab/" + folder])
        }
        let downloadFolder = work + "/vocab-home/anki-download"
        // As Anki's server holds its collection file before an app asks, `vocab serve` makes the
        // file ready off the requests once started: the round begins once it is there.
        let readyAfter = try Self.waitForDownloadReady(folder: downloadFolder)
        print(String(format: "  vocab serve made the download ready %.1f s after the bench began to wait", readyAfter))
        let ours = try client(["round", vocabEndpoint, work + "/vocab/round", String(changes)])
        let peak = server.peakMiB
        // The same downloads in a row, each once the file is ready again (a download moves the
        // collection's number, so the file is made anew): what the server holds after each must
        // not grow with their number.
        var ourDownloads = [ours["download"] as? Double ?? .infinity]
        var residents: [Double] = []
        var firstHeld: Int?
        // The file there as the round ends was made before its last syncs: the next is awaited.
        var lastFile = try Self.readyDownloadFile(folder: downloadFolder, other: Self.downloadFile(in: downloadFolder))
        for turn in 1...successiveDownloads {
            let folder = work + "/vocab/again\(turn)"
            _ = try client(["login", vocabEndpoint, "me", server.currentCode, folder])
            let again = try client(["download", vocabEndpoint, folder])
            // The collection and the round's new notes, the same in each.
            let held = again["notes"] as? Int ?? 0
            BenchChecks.require(held >= notes && held == firstHeld ?? held,
                                "anki-sync: download \(turn) of \(successiveDownloads) held \(held) notes, the first of them \(firstHeld ?? held)")
            firstHeld = firstHeld ?? held
            ourDownloads.append(again["download"] as? Double ?? .infinity)
            residents.append(server.residentMiB)
            lastFile = try Self.readyDownloadFile(folder: downloadFolder, other: lastFile)
        }
        // Last, the same collection uploaded whole over the store that holds its words.
        let ourUpload = (try client(["upload", vocabEndpoint, package, work + "/vocab/upload"]))["upload"] as? Double ?? .infinity
        let uploadPeak = server.peakMiB
        // A first download with nothing made ready: a server started on the store as imported,
        // asked at once (its first mirror of every word and the file's writing in the request).
        let cold = try WebBenchmark.Server(executable: vocab, home: work + "/vocab-cold-home", config: work + "/config")
        defer { cold.stop() }
        _ = try client(["login", cold.url + "anki/", "me", cold.currentCode, work + "/vocab/cold"])
        let coldDownload = try client(["download", cold.url + "anki/", work + "/vocab/cold"])
        BenchChecks.require(coldDownload["notes"] as? Int == notes, "anki-sync: the download with nothing ready held \(coldDownload["notes"] ?? "nothing"), not \(notes) notes")

        for (name, result) in [("Anki's server", reference), ("vocab serve", ours)] {
            BenchChecks.require(result["notes"] as? Int == notes, "anki-sync: \(name)'s download held \(result["notes"] ?? "nothing"), not \(notes) notes")
            BenchChecks.require(result["revlog"] as? Int == notes * 4, "anki-sync: \(name)'s download held \(result["revlog"] ?? "no") log entries")
            BenchChecks.require(result["arrived"] as? Int == changes, "anki-sync: \(changes) notes went down from \(name), \(result["arrived"] ?? 0) arrived")
        }
        let bytes = Double(ours["bytes"] as? Int ?? 0)
        print(String(format: "anki-sync: %d notes, %d log entries (a %.1f MiB collection)",
                     notes, notes * 4, Double(reference["bytes"] as? Int ?? 0) / 1_048_576))
        var ourFigures = ours, theirFigures = reference
        ourFigures["upload"] = ourUpload
        theirFigures["upload"] = upload
        // One download varies by a tenth of a second from run to run (the client's own checks of
        // the file): the median of six, each of an empty collection.
        ourFigures["download"] = Self.median(ourDownloads)
        theirFigures["download"] = Self.median(theirDownloads)
        print("  first full downloads of an empty collection, one after another: vocab serve "
              + ourDownloads.map { String(format: "%.3f", $0) }.joined(separator: ", ") + " s; Anki's server "
              + theirDownloads.map { String(format: "%.3f", $0) }.joined(separator: ", ") + " s")
        for (what, key) in [("first full download (median of \(ourDownloads.count))", "download"), ("normal sync of \(changes) notes up (median of 5)", "up"),
                            ("normal sync of \(changes) notes down (median of 5)", "down"), ("full upload", "upload")] {
            let mine = ourFigures[key] as? Double ?? .infinity, theirs = theirFigures[key] as? Double ?? 0
            let ratio = mine / max(theirs, 1e-9)
            print(String(format: "  %@: vocab serve %.3f s, Anki's server %.3f s, ratio %.2fx (target <= 1x)", what, mine, theirs, ratio))
            BenchChecks.target("anki-sync \(what): \(String(format: "%.2f", ratio))x Anki's server", ratio, atMost: 1)
        }
        print(String(format: "  first full download with nothing made ready (a server asked as it starts): vocab serve %.3f s, %.2fx Anki's server (no target)",
                     coldDownload["download"] as? Double ?? .infinity, (coldDownload["download"] as? Double ?? .infinity) / max(theirFigures["download"] as? Double ?? 0, 1e-9)))
        let memory = peak * 1_048_576 / max(bytes, 1)
        print(String(format: "  vocab serve's peak memory over the round %.1f MiB, %.2fx the collection it sent (target < 2x)", peak, memory))
        BenchChecks.target("anki-sync server memory: \(String(format: "%.2f", memory))x the collection", memory, atMost: 2)
        let growth = ((residents.last ?? 0) - (residents.first ?? 0)) * 1_048_576 / max(bytes, 1)
        print(String(format: "  vocab serve's memory after each of %d full downloads in a row: %@ MiB; grew %.2fx the collection from the first to the last (target < 0.25x)",
                     successiveDownloads, residents.map { String(format: "%.1f", $0) }.joined(separator: ", "), growth))
        BenchChecks.target("anki-sync server memory over \(successiveDownloads) downloads: grew \(String(format: "%.2f", growth))x the collection", growth, atMost: 0.25)
        print(String(format: "  vocab serve's peak memory with the full upload %.1f MiB, %.2fx the collection", uploadPeak,
                     uploadPeak * 1_048_576 / max(bytes, 1)))
    }

    /// The middle of `values` (of an even count, the mean of the two in the middle).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .infinity }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Waits until `folder` holds a compressed collection ready for the next download (at most
    /// 10 minutes); returns the seconds waited.
    static func waitForDownloadReady(folder: String) throws -> Double {
        let started = ContinuousClock.now
        _ = try readyDownloadFile(folder: folder, other: nil)
        return (ContinuousClock.now - started).seconds
    }

    /// The compressed collection in `folder` now, if any.
    static func downloadFile(in folder: String) -> String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).first { $0.hasSuffix(".zst") }
    }

    /// Waits until `folder` holds a compressed collection named other than `other` (at most 10
    /// minutes); returns its name.
    static func readyDownloadFile(folder: String, other: String?) throws -> String {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(600) {
            if let name = downloadFile(in: folder), name != other { return name }
            usleep(100_000)
        }
        throw BenchError.message("vocab serve made no new download ready in \(folder) within 10 minutes")
    }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError.message("no socket for a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw BenchError.message("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something accepts connections on the loopback `port` (at most 30 s).
    static func waitForListener(port: Int) throws {
        for _ in 0..<300 {
            if let socket = loopbackConnection(from: "127.0.0.1", to: port, sending: "") {
                close(socket)
                return
            }
            usleep(100_000)
        }
        throw BenchError.message("nothing listened on port \(port) within 30 s")
    }
}

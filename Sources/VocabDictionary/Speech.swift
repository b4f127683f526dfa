import FoundationEssentials
import VocabCore
import VocabSystem

/// Pronunciation and speech through espeak-ng, when it is installed.
public struct Speech: Sendable {
    /// The espeak-ng program, found on PATH (or given).
    public let program: String

    /// Finds espeak-ng on PATH; throws a message saying how to install it otherwise.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let paths = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let found = paths.map({ "\($0)/espeak-ng" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw DictionaryError.espeakMissing
        }
        program = found
    }

    /// The voice for a language: English by default, Korean for Hangul text.
    public static func voice(for text: String, requested: String? = nil) -> String {
        if let requested { return requested == "ko" ? "ko" : requested == "en" ? "en-us" : requested }
        return text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) || (0x1100...0x11FF).contains($0.value) } ? "ko" : "en-us"
    }

    /// The word in IPA (`espeak-ng -q --ipa`).
    public func ipa(_ text: String, voice: String? = nil) throws -> String {
        let output = try run(["-q", "--ipa", "-v", Speech.voice(for: text, requested: voice), "--", text])
        return output.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Speaks the text, or writes it to a WAV file when `wavPath` is given.
    public func say(_ text: String, voice: String? = nil, wavPath: String? = nil) throws {
        var arguments = ["-v", Speech.voice(for: text, requested: voice)]
        if let wavPath { arguments += ["-w", wavPath] }
        _ = try run(arguments + ["--", text])
    }

    private func run(_ arguments: [String]) throws -> String {
        let result: Subprocess.Result
        do {
            result = try Subprocess(program, arguments).run(output: .capture, errors: .capture)
        } catch {
            throw DictionaryError.speechFailed("it could not start")
        }
        guard result.succeeded else {
            let errorText = String(decoding: result.errors, as: UTF8.self)
            throw DictionaryError.speechFailed(errorText.split(whereSeparator: \.isNewline).first.map(String.init)
                                               ?? result.exitStatus.map { "exit \($0)" } ?? "it was stopped by a signal")
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}

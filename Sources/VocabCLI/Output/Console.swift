import FoundationEssentials
import VocabCore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams, with buffered output and line input.
final class Console {
    private var outputBuffer: [UInt8] = []
    let stdinIsTerminal: Bool
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool

    init() {
        stdinIsTerminal = isatty(STDIN_FILENO) == 1
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        stderrIsTerminal = isatty(STDERR_FILENO) == 1
    }

    /// Writes a line to standard output (buffered).
    func print(_ text: String = "") {
        outputBuffer.append(contentsOf: text.utf8)
        outputBuffer.append(UInt8(ascii: "\n"))
        if outputBuffer.count >= 64 * 1024 { flush() }
    }

    /// Writes text as it is to standard output (buffered).
    func write(_ text: String) {
        outputBuffer.append(contentsOf: text.utf8)
        if outputBuffer.count >= 64 * 1024 { flush() }
    }

    /// Writes bytes made elsewhere (a long list's) to standard output, emptying `bytes`.
    func write(bytes: inout [UInt8]) {
        if outputBuffer.isEmpty {
            swap(&outputBuffer, &bytes)
        } else {
            outputBuffer.append(contentsOf: bytes)
            bytes.removeAll(keepingCapacity: true)
        }
        if outputBuffer.count >= 64 * 1024 { flush() }
    }

    /// Writes text without a newline and flushes (for prompts).
    func prompt(_ text: String) {
        outputBuffer.append(contentsOf: text.utf8)
        flush()
    }

    /// Writes a line to standard error at once.
    func error(_ text: String) {
        flush()
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }

    /// Redraws one status line on standard error (a terminal): carriage return, text, clear.
    func errorInPlace(_ text: String) {
        let line = Array(("\r" + text + "\u{1B}[K").utf8)
        _ = line.withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }

    func flush() {
        guard !outputBuffer.isEmpty else { return }
        _ = outputBuffer.withUnsafeBytes { writeAll(STDOUT_FILENO, $0) }
        outputBuffer.removeAll(keepingCapacity: true)
    }

    /// Reads one line from standard input, without its newline; nil at end of input.
    /// When input comes from a pipe, the line read is echoed after the prompt, so that the
    /// output reads like the session it was.
    func readLine() -> String? {
        flush()
        let line = Swift.readLine(strippingNewline: true)
        if !stdinIsTerminal {
            print(line ?? "")
        }
        return line
    }

    /// Asks a yes/no question; anything but y/yes (or end of input) is no.
    func confirm(_ question: String) -> Bool {
        prompt("\(question) [y/N] ")
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingSpaces().lowercased())
    }

    /// Writes `text` to standard output (or `descriptor`: standard error for a server's report
    /// from a thread of its own) at once, unbuffered (lines a waiting script reads).
    static func writeNow(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
        var copy = text
        _ = copy.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }
}

import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a password: without echo on a terminal, as one line of standard input otherwise.
enum SecretPrompt {
    static func read(_ prompt: String, console: Console) -> String? {
        guard console.stdinIsTerminal else { return Swift.readLine(strippingNewline: true) }
        console.prompt(prompt)
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            console.print("")
        }
        return Swift.readLine(strippingNewline: true)
    }
}

import Glibc

/// Runs another program to its end (`posix_spawn`, no shell): its standard input is empty, its
/// output goes where asked. For the helpers Vocab calls: gzip, espeak-ng, xdg-open.
public struct Subprocess {
    /// Where one of the child's outputs goes.
    public enum Output {
        /// Thrown away (/dev/null).
        case discard
        /// Kept, and returned in the result.
        case capture
        /// Written to a new private file (mode 0600), replacing what was there.
        case file(String)
    }

    /// How the child ended and what it wrote where `.capture` was asked.
    public struct Result {
        /// The exit status, or nil when a signal ended it.
        public let exitStatus: Int32?
        public let output: [UInt8]
        public let errors: [UInt8]
        public var succeeded: Bool { exitStatus == 0 }
    }

    /// Why a child did not start.
    public struct StartFailure: Error {
        public let reason: String
    }

    public let program: String
    public let arguments: [String]

    public init(_ program: String, _ arguments: [String]) {
        self.program = program
        self.arguments = arguments
    }

    /// Starts the program, waits for it and returns how it ended.
    public func run(output: Output = .discard, errors: Output = .discard) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipes: [(parent: Int32, child: Int32, target: Int32)] = []
        defer { for pipe in pipes { close(pipe.parent) } }
        for (target, wanted) in [(Int32(1), output), (Int32(2), errors)] {
            switch wanted {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .capture:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw StartFailure(reason: String(cString: strerror(errno))) }
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                pipes.append((ends[0], ends[1], target))
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
            }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let started = posix_spawn(&child, program, &actions, nil, argv, environ)
        for pipe in pipes { close(pipe.child) }
        guard started == 0 else { throw StartFailure(reason: String(cString: strerror(started))) }
        let captured = Subprocess.drain(pipes.map { ($0.parent, $0.target) })
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        return Result(exitStatus: exited ? (status >> 8) & 0xFF : nil,
                      output: captured[1] ?? [], errors: captured[2] ?? [])
    }

    /// Reads every pipe to its end, all at once (a child filling one while we wait on the
    /// other would otherwise never finish).
    private static func drain(_ pipes: [(descriptor: Int32, target: Int32)]) -> [Int32: [UInt8]] {
        var collected: [Int32: [UInt8]] = [:]
        var open = pipes
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { break }
            for (index, entry) in polled.enumerated().reversed() where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[open[index].target, default: []] += chunk[0..<count]
                } else if count == 0 || errno != EINTR {
                    open.remove(at: index)
                }
            }
        }
        return collected
    }
}

import CWalletSpawn

/// How a child process ended. A non-zero exit is a result, not an error.
public enum TerminationStatus: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus: Int32) {
        if wh_wifsignaled(waitStatus) != 0 {
            self = .signaled(wh_wtermsig(waitStatus))
        } else {
            self = .exited(wh_wexitstatus(waitStatus))
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): return "exited with status \(code)"
        case .signaled(let signal): return "killed by \(SignalName.name(signal))"
        }
    }
}

/// Conventional signal names for messages.
enum SignalName {
    static func name(_ signal: Int32) -> String {
        let names: [Int32: String] = [1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
                                      7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM"]
        return names[signal] ?? "signal \(signal)"
    }
}

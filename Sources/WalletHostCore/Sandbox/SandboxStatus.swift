import Synchronization

/// Whether this host process can sandbox extensions, learnt from the first launch the kernel
/// refused, and the one warning that follows in `auto` mode.
public enum SandboxStatus {
    private struct State {
        var refusal: String?
        var warned = false
        var warn: (@Sendable (String) -> Void)?
    }

    private static let state = Mutex(State())

    /// Why the kernel refused the sandbox in this process, once it did; nil while it never has.
    public static var refusal: String? { state.withLock { $0.refusal } }

    /// Where the one warning of a run goes (the CLI prints it on stderr). Set before the first launch.
    public static func onWarning(_ warn: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.warn = warn }
    }

    /// Notes that the kernel refused the sandbox; `auto` then runs unsandboxed. The first time,
    /// the warning goes out.
    static func noteRefusal(_ reason: String) {
        state.withLock { state in
            if state.refusal == nil { state.refusal = reason }
        }
        warnOnce(reason)
    }

    /// The run's one warning that extensions run unsandboxed, and why, unless it went out already.
    static func warnOnce(_ reason: String) {
        let warning = state.withLock { state -> (@Sendable (String) -> Void, String)? in
            guard !state.warned, let warn = state.warn else { return nil }
            state.warned = true
            return (warn, reason)
        }
        if let (warn, reason) = warning {
            warn("warning: extensions run without the sandbox (--sandbox auto): \(reason); "
                 + "they can read the state directory and other issuers' App Groups, and what they start may outlive them")
        }
    }
}

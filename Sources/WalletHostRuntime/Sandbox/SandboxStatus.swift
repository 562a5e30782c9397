import CWalletSpawn
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whether this host can sandbox extensions, as a probe of the kernel says, and the one warning
/// that follows in `auto` mode where it cannot.
///
/// Only the probe decides that `auto` runs unsandboxed: a launch whose sandbox setup fails for
/// any other reason (out of descriptors, a mount refused because of what a container holds, an
/// init that crashed) fails, naming the step, and the next launch tries the sandbox again.
public enum SandboxStatus {
    private struct State {
        /// nil: not probed yet; .some(nil): the kernel allows the sandbox; .some(reason): it refuses.
        var probed: String??
        var warned = false
        var warn: (@Sendable (String) -> Void)?
        /// A probe under way on a thread of its own (``prepare()``): left when it has answered.
        var probing: DispatchGroup?
    }

    private static let state = Mutex(State())

    /// Why the kernel refuses the sandbox's namespaces to this process, or nil where it allows
    /// them. Probed on first use; ``probe()`` asks again.
    public static var refusal: String? {
        if case .refused(let reason) = answer { return reason }
        return nil
    }

    /// Asks the kernel now (a child cloned into the sandbox's namespaces), remembers the answer
    /// for ``refusal`` and returns it: nil where the sandbox can be had. A probe that could not
    /// tell (``SandboxProbeAnswer/undetermined(reason:)``, a transient clone error on every try)
    /// is not remembered and is no refusal: nil here, and the next launch asks again
    /// (``ChildProcess`` fails that launch rather than run it unsandboxed).
    @discardableResult
    public static func probe() -> String? {
        let answer = ask()
        if case .refused(let reason) = answer { return reason }
        return nil
    }

    /// Asks the kernel (``SandboxProbeAnswer/asking(attempts:probe:pause:)`` with the real probe)
    /// and remembers a definite answer for ``refusal``.
    static func ask() -> SandboxProbeAnswer {
        let userNamespace: Int32 = SandboxPlan.runsAsUnprivilegedUser ? 0 : 1
        let answer = SandboxProbeAnswer.asking(probe: { wh_sandbox_probe(userNamespace) })
        switch answer {
        case .allowed: state.withLock { $0.probed = .some(nil) }
        case .refused(let reason): state.withLock { $0.probed = .some(reason) }
        case .undetermined: break
        }
        return answer
    }

    /// Starts the probe on a thread of its own, unless it answered already or is under way, so
    /// that its clone (which copies the host's mount table) overlaps the rest of a launch's
    /// work; ``answer`` waits for it.
    static func prepare() {
        let group = state.withLock { state -> DispatchGroup? in
            guard state.probed == nil, state.probing == nil else { return nil }
            let group = DispatchGroup()
            group.enter()
            state.probing = group
            return group
        }
        guard let group else { return }
        let started = DetachedThread.start(name: "sandbox-probe", stackBytes: 256 << 10) {
            _ = ask()
            state.withLock { $0.probing = nil }
            group.leave()
        }
        if started != 0 {
            state.withLock { $0.probing = nil }
            group.leave()
        }
    }

    /// The remembered answer, or a new one (asked again while the kernel's answers were transient).
    static var answer: SandboxProbeAnswer {
        state.withLock { $0.probing }?.wait()
        if let probed = state.withLock({ $0.probed }) { return probed.map { .refused(reason: $0) } ?? .allowed }
        return ask()
    }

    /// Where the one warning of a run goes (the CLI prints it on stderr). Set before the first launch.
    public static func onWarning(_ warn: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.warn = warn }
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

    /// Sends `text` where the run's warnings go (``onWarning(_:)``), if anywhere.
    static func emitWarning(_ text: String) {
        state.withLock { $0.warn }?(text)
    }
}

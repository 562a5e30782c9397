import Testing
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 12: `--sandbox auto` read any clone error of its probe as "the kernel refuses",
/// a transient EAGAIN included, and then ran every extension unsandboxed. Only EPERM, EINVAL,
/// ENOSPC and EUSERS are refusals; anything else is asked again, then fails closed.
@Suite("The sandbox probe: only a refusal turns the sandbox off")
struct SandboxProbeAnswerTests {
    /// A probe that answers `codes` in turn (the last one for ever), counting its calls and pauses.
    final class ScriptedProbe {
        var codes: [Int32]
        var calls = 0
        var pauses: [Int] = []
        init(_ codes: [Int32]) { self.codes = codes }

        func ask() -> SandboxProbeAnswer {
            SandboxProbeAnswer.asking(probe: {
                calls += 1
                return codes.count > 1 ? codes.removeFirst() : codes[0]
            }, pause: { pauses.append($0) })
        }
    }

    @Test("EAGAIN once, then success: the sandbox is allowed, after one retry")
    func transientThenAllowed() {
        let probe = ScriptedProbe([EAGAIN, 0])
        #expect(probe.ask() == .allowed)
        #expect(probe.calls == 2)
        #expect(probe.pauses == [1])
    }

    @Test("EAGAIN on every try: undetermined (fail closed), never a refusal, with a message naming it",
          arguments: [EAGAIN, ENOMEM, EINTR])
    func transientForever(code: Int32) throws {
        let probe = ScriptedProbe([code])
        let answer = probe.ask()
        #expect(probe.calls == SandboxProbeAnswer.attempts)
        guard case .undetermined(let reason) = answer else {
            Issue.record("errno \(code) on every try was read as \(answer)")
            return
        }
        #expect(reason.contains("errno \(code)"), "\(reason)")
        #expect(reason.contains("could not tell whether the kernel allows the sandbox"), "\(reason)")
        #expect(reason.contains("\(SandboxProbeAnswer.attempts) times"), "\(reason)")
        #expect(reason.contains("this launch fails"), "\(reason)")
    }

    @Test("EPERM, EINVAL, ENOSPC, EUSERS: the kernel refuses, asked once", arguments: [EPERM, EINVAL, ENOSPC, EUSERS])
    func refusal(code: Int32) {
        let probe = ScriptedProbe([code])
        let answer = probe.ask()
        #expect(answer == .refused(reason: "sandbox namespaces (clone) failed: \(String(cString: strerror(code))) (errno \(code))"))
        #expect(probe.calls == 1)
    }

    @Test("the child's refused steps are refusals; a child that died of a signal is not")
    func childSteps() {
        #expect(SandboxProbeAnswer(code: -1) == .refused(reason: "the kernel refused the user namespace's id maps"))
        #expect(SandboxProbeAnswer(code: -5) == .refused(reason: "the kernel refused mounts in a new mount namespace"))
        guard case .undetermined = SandboxProbeAnswer(code: -100) else {
            Issue.record("a probe child killed by a signal was read as \(SandboxProbeAnswer(code: -100))")
            return
        }
    }
}

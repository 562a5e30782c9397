import Foundation
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// The checks every extension gets, whatever its point: the plan, the manifest, the handshake
/// and the result shapes. Timing, process and run-wide checks are in the other
/// `StandardChecks+*.swift` files.
enum StandardChecks {
    static let manifestID = "manifest-valid"
    static let manifestTitle = "The bundle's manifest is valid"
    static let handshakeID = "handshake"

    /// A check in the run's plan, with what it depends on.
    struct Planned {
        var definition: ConformanceCheckDefinition
        /// Skipped when the handshake check failed.
        var needsHandshake = true
        /// Judges the whole run's events: every runner is stopped first.
        var runWide = false
    }

    /// Every check after `manifest-valid`, in order, for `point` (nil when the bundle did not
    /// load: then only the checks that do not depend on the point's methods are listed).
    static func withoutManifest(point: ExtensionPoint?, options: ConformanceOptions,
                                profileChecks: [ConformanceCheckDefinition] = []) -> [Planned] {
        var plan = [Planned(definition: handshake, needsHandshake: false)]
        if let point {
            plan += point.methods.map { Planned(definition: resultShape($0.name)) }
            // Which methods are timed is the point's nature (Wallet's 100 ms status); the limit they
            // are timed against is the configuration's, so `--deadline status=2s` relaxes, not removes, them.
            let timed = point.methods.filter { $0.deadline <= options.timedDeadlineThreshold }.map(\.name)
            plan += timed.flatMap { [Planned(definition: coldDeadline($0)), Planned(definition: warmDeadline($0))] }
        }
        plan += [Planned(definition: honoursCancel), Planned(definition: concurrentCalls)]
        plan += profileChecks.map { Planned(definition: $0) }
        plan.append(Planned(definition: exitsOnExit))
        plan += [memoryLimit, protocolOnly, exactlyOnce].map { Planned(definition: $0, needsHandshake: false, runWide: true) }
        return plan
    }

    // MARK: manifest-valid

    static func manifestVerdict(bundle: ExtensionBundle?, findings: [ValidationFinding]) -> ConformanceVerdict {
        let errors = findings.filter { $0.severity == .error }
        let warnings = findings.filter { $0.severity == .warning }
        let notes = findings.filter { $0.severity == .note }
        if bundle == nil || !errors.isEmpty {
            let listed = errors.prefix(3).map { "\($0.key): \($0.problem)" }
            let more = errors.count > 3 ? "; and \(errors.count - 3) more" : ""
            return .failed("\(HumanReadable.counted(errors.count, "error")) in the manifest: "
                           + (listed.isEmpty ? "the bundle does not load" : listed.joined(separator: "; ")) + more)
        }
        guard let bundle else { return .failed("the bundle does not load") }
        var evidence = "Info.plist and entitlements load for \(bundle.extensionPointIdentifier)"
        evidence += bundle.principalClass.map { " (principal class \($0))" } ?? bundle.mainStoryboard.map { " (storyboard \($0))" } ?? ""
        if warnings.isEmpty {
            evidence += "; no warnings"
        } else {
            evidence += "; \(HumanReadable.counted(warnings.count, "warning")): "
                + warnings.prefix(3).map { "\($0.key): \($0.problem)" }.joined(separator: "; ")
        }
        if !notes.isEmpty { evidence += "; \(HumanReadable.counted(notes.count, "note"))" }
        return .passed(evidence)
    }

    // MARK: handshake

    static let handshake = ConformanceCheckDefinition(
        id: handshakeID, title: "A fresh process completes the initialize handshake"
    ) { context in
        let (runner, events) = context.makeRunner()
        let result = await runner.prewarm()
        let elapsed = await context.handshakeMilliseconds(in: events)
        await runner.stop(reason: "conformance: handshake checked")
        let timing = elapsed.map { " after \(HumanReadable.milliseconds($0))" } ?? ""
        switch result {
        case .failure(let error):
            return .failed("initialize failed\(timing): \(error.message)")
        case .success(let initialize):
            let defined = context.point.methods.map(\.name)
            let implemented = defined.filter(initialize.methods.contains)
            let missing = defined.filter { !initialize.methods.contains($0) }
            let unknown = initialize.methods.filter { !defined.contains($0) }
            var evidence = "initialize answered\(timing): \(initialize.runtime.name) \(initialize.runtime.version), "
                + "protocol \(initialize.protocolVersion)"
            guard !implemented.isEmpty else {
                return .failed(evidence + "; it lists none of the methods of \(context.point.identifier) "
                               + "(\(HumanReadable.list(defined))), so Wallet could never call it")
            }
            context.recordHandshake(initialize)
            evidence += ", implements \(HumanReadable.list(implemented))"
            if !missing.isEmpty { evidence += "; does not implement \(HumanReadable.list(missing)) (never called)" }
            if !unknown.isEmpty {
                evidence += "; also lists \(HumanReadable.list(unknown)), which \(context.point.identifier) does not define"
            }
            return .passed(evidence)
        }
    }

    // MARK: result-shape-<method>

    static func resultShape(_ method: String) -> ConformanceCheckDefinition {
        ConformanceCheckDefinition(id: "result-shape-\(method)", title: "\(method) answers with the documented result shape") { context in
            guard context.implements(method) else {
                return .skipped("skipped: \(context.executableName) does not implement \(method) (not listed in initialize)")
            }
            if let hung = context.hungMethod {
                return .skipped("skipped: not tried after the extension hung on \(hung) (see result-shape-\(hung))")
            }
            let exercise = context.exercise(for: method)
            let params: JSONValue
            switch exercise.parameters(context) {
            case .unavailable(let reason): return .skipped("skipped: \(reason)")
            case .ready(let ready): params = ready
            }
            let (runner, events) = context.makeRunner()
            let patience = context.patience(for: method)
            // Shape, not speed: launch first, so a slow start (a loaded machine, a big runtime)
            // does not eat the call's time. The deadline checks judge launch time.
            _ = await runner.prewarm()
            let outcome = await context.call(runner, method, params: params, deadline: patience)
            let verdict: ConformanceVerdict
            switch outcome.result {
            case .success(let value):
                let took = HumanReadable.milliseconds(outcome.totalMilliseconds)
                switch exercise.judge(value) {
                case .valid(let summary):
                    context.recordResult(MethodResult(method: method, params: params, value: value,
                                                      milliseconds: outcome.totalMilliseconds))
                    verdict = .passed("\(method) answered in \(took) with the documented shape: \(summary)")
                case .invalid(let problem):
                    verdict = .failed("\(method) answered in \(took), but not with the documented shape: \(problem)")
                }
            case .failure(let error) where error.kind == .deadlineExceeded && outcome.launchedProcess
                && outcome.launchMilliseconds == nil:
                let launch = await context.handshakeMilliseconds(in: events)
                verdict = .failed("\(method) was never sent: launch and handshake took "
                                  + (launch.map(HumanReadable.milliseconds) ?? "longer than the run waited")
                                  + ", more than the \(patienceText(patience, method: method, context: context)) the call had")
            case .failure(let error) where error.kind == .deadlineExceeded:
                let aftermath = await context.aftermath(of: method, in: events, since: 0)
                if case .answered = aftermath {} else { context.recordHung(method) }
                verdict = .failed("\(method) gave no answer within \(patienceText(patience, method: method, context: context))"
                                  + wroteInstead(error) + afterwards(aftermath))
            case .failure(let error) where error.kind == .notImplemented:
                if let reason = exercise.notCalledBecause(context) {
                    verdict = .passed("\(method) is not implemented, and the host never calls it in this state: \(reason)")
                } else {
                    verdict = .failed(failureSentence(method, error))
                }
            case .failure(let error):
                verdict = .failed(failureSentence(method, error))
            }
            await runner.stop(reason: "conformance: \(method) shape checked")
            return verdict
        }
    }

    /// "1 s", or "5 s (the run's cap; the deadline is 20 s)".
    static func patienceText(_ patience: Duration, method: String, context: ConformanceContext) -> String {
        let text = HumanReadable.duration(patience)
        guard let limit = context.limit(for: method), limit > patience else { return text }
        return "\(text) (the conformance run's cap; its deadline is \(HumanReadable.duration(limit)))"
    }

    /// What the extension wrote on fd 4 instead of an answer, as the end of a sentence ("" if nothing).
    static func wroteInstead(_ error: ExtensionCallError) -> String {
        guard let first = error.diagnostics.protocolViolations.first else { return "" }
        let more = error.diagnostics.protocolViolations.count - 1
        return "; instead it wrote on fd 4: \(first)" + (more > 0 ? " (and \(HumanReadable.counted(more, "more line")))" : "")
    }

    /// What followed a missed deadline, as the end of a sentence.
    static func afterwards(_ aftermath: ConformanceContext.Aftermath) -> String {
        switch aftermath {
        case .answered(let milliseconds, let acknowledged):
            return acknowledged
                ? "; it acknowledged the cancellation \(HumanReadable.milliseconds(milliseconds)) after the ask"
                : "; it answered \(HumanReadable.milliseconds(milliseconds)) after the ask (dropped as late)"
        case .hung(let hung):
            return "; the host declared it hung (\(HostEvent(.hung(hung)).message)) and stopped it"
        case .ended(let reason):
            return "; then \(reason)"
        case .silent:
            return "; nor in the grace after $/cancelRequest"
        }
    }

    /// A failed call as a sentence: the extension's own error, or what the host saw.
    static func failureSentence(_ method: String, _ error: ExtensionCallError) -> String {
        switch error.kind {
        case .extensionError:
            return "\(method) answered with error \(error.code): \(error.message)"
        case .notImplemented:
            return "\(method) is not implemented: \(error.message)"
        default:
            return "\(method) failed: \(error.message)"
        }
    }
}

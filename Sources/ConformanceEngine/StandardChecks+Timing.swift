import Foundation
import WalletHostRuntime
import WalletWire

/// `<method>-cold-deadline` and `<method>-warm-deadline`: a method with a short deadline
/// (Wallet's 100 ms `status`) meets it from a new process and on a warm one.
extension StandardChecks {
    static func coldDeadline(_ method: String) -> ConformanceCheckDefinition {
        ConformanceCheckDefinition(id: "\(method)-cold-deadline",
                                   title: "\(method) answers within its deadline from a new process (launch included)") { context in
            if let skip = timingSkip(method, context) { return skip }
            guard let limit = context.limit(for: method) else { return .skipped("skipped: \(method) has no deadline") }
            let limitText = HumanReadable.duration(limit)
            let params = context.standaloneParameters(method)
            var misses: [ColdMiss] = []
            let attempts = max(1, context.options.coldAttempts)
            for attempt in 1...attempts {
                let (runner, events) = context.makeRunner()
                let outcome = await context.call(runner, method, params: params, deadline: limit)
                let launch = events.events.lazy.compactMap { event -> Double? in
                    if case .handshake(let handshake) = event.payload { return handshake.milliseconds }
                    return nil
                }.first
                let launchText = launch.map { "launch and handshake \(HumanReadable.milliseconds($0))" } ?? ""
                switch classify(outcome) {
                case .answered:
                    await runner.stop(reason: "conformance: cold \(method) timed")
                    var evidence = "\(method) answered in \(HumanReadable.milliseconds(outcome.totalMilliseconds)) cold ("
                    if !launchText.isEmpty { evidence += "\(launchText), " }
                    evidence += "call \(HumanReadable.milliseconds(outcome.callMilliseconds)); limit \(limitText))"
                    if attempt > 1 { evidence += " on launch \(attempt) of \(attempts); before that: \(ColdMiss.describe(misses))" }
                    return .passed(evidence)
                case .missed where outcome.launchedProcess && outcome.launchMilliseconds == nil:
                    // The deadline passed during launch and handshake: the call was never sent.
                    misses.append(.unsent(launchMilliseconds: await context.handshakeMilliseconds(in: events)))
                    await runner.stop(reason: "conformance: cold \(method) timed")
                case .missed:
                    let aftermath = await context.aftermath(of: method, in: events, since: 0)
                    await runner.stop(reason: "conformance: cold \(method) timed")
                    guard case .answered(let milliseconds, _) = aftermath else {
                        return .failed("\(method) gave no answer within its \(limitText) deadline cold"
                                       + (launchText.isEmpty ? "" : " (\(launchText))") + wroteInstead(outcome)
                                       + afterwards(aftermath))
                    }
                    misses.append(.late(afterAsk: milliseconds, launchMilliseconds: launch))
                case .failed(let error):
                    await runner.stop(reason: "conformance: cold \(method) timed")
                    return .failed(failureSentence(method, error) + " (cold)")
                }
            }
            return .failed("\(method) missed its \(limitText) deadline in \(attempts == 1 ? "its" : "all \(attempts)") cold "
                           + "\(attempts == 1 ? "launch" : "launches"): \(ColdMiss.describe(misses))")
        }
    }

    /// One cold launch whose call missed the deadline.
    enum ColdMiss {
        /// The call was sent and answered late, this long after the ask.
        case late(afterAsk: Double, launchMilliseconds: Double?)
        /// The deadline passed during launch and handshake (which took this long, if it finished).
        case unsent(launchMilliseconds: Double?)

        /// "it answered 209 ms, 165 ms and 183 ms after the ask (the last launch and handshake 29.4 ms)",
        /// "launch and handshake alone took 247 ms and 230 ms", or both, joined by "; ".
        static func describe(_ misses: [ColdMiss]) -> String {
            var late: [Double] = []
            var lastLaunch: Double?
            var unsent: [String] = []
            for miss in misses {
                switch miss {
                case .late(let afterAsk, let launch):
                    late.append(afterAsk)
                    lastLaunch = launch ?? lastLaunch
                case .unsent(let launch):
                    unsent.append(launch.map(HumanReadable.milliseconds) ?? "longer than the run waited")
                }
            }
            var parts: [String] = []
            if !late.isEmpty {
                parts.append("it answered \(HumanReadable.list(late.map(HumanReadable.milliseconds))) after the ask"
                             + (lastLaunch.map { " (launch and handshake \(HumanReadable.milliseconds($0)))" } ?? ""))
            }
            if !unsent.isEmpty {
                parts.append("launch and handshake alone took \(HumanReadable.list(unsent)), so the call was never sent")
            }
            return parts.joined(separator: "; ")
        }
    }

    static func warmDeadline(_ method: String) -> ConformanceCheckDefinition {
        ConformanceCheckDefinition(id: "\(method)-warm-deadline",
                                   title: "\(method) answers within its deadline on a warm process (median of several calls)") { context in
            if let skip = timingSkip(method, context) { return skip }
            guard let limit = context.limit(for: method) else { return .skipped("skipped: \(method) has no deadline") }
            let limitText = HumanReadable.duration(limit)
            let limitMilliseconds = limit.milliseconds
            let params = context.standaloneParameters(method)
            let (runner, events) = context.makeRunner()
            if case .failure(let error) = await runner.prewarm() {
                await runner.stop(reason: "conformance: warm \(method) timed")
                return .failed("no warm process to time: \(error.message)")
            }
            let count = max(1, context.options.warmSamples)
            var samples: [Double] = []
            for number in 1...count {
                let start = events.events.count
                let outcome = await context.call(runner, method, params: params, deadline: limit)
                switch classify(outcome) {
                case .answered:
                    samples.append(outcome.totalMilliseconds)
                case .missed:
                    let aftermath = await context.aftermath(of: method, in: events, since: start)
                    guard case .answered(let milliseconds, _) = aftermath else {
                        await runner.stop(reason: "conformance: warm \(method) timed")
                        return .failed("warm \(method) call \(number) of \(count) gave no answer within its \(limitText) deadline"
                                       + wroteInstead(outcome) + afterwards(aftermath))
                    }
                    samples.append(milliseconds)
                case .failed(let error):
                    await runner.stop(reason: "conformance: warm \(method) timed")
                    return .failed(failureSentence(method, error) + " (warm call \(number) of \(count))")
                }
            }
            await runner.stop(reason: "conformance: warm \(method) timed")
            let sorted = samples.sorted()
            let median = sorted[sorted.count / 2]
            let over = samples.count { $0 > limitMilliseconds }
            var evidence = "\(method) answered in \(HumanReadable.milliseconds(median)) warm (median of "
                + "\(HumanReadable.counted(count, "call")), slowest \(HumanReadable.milliseconds(sorted.last ?? median))"
            if over > 0 { evidence += ", \(over) of \(count) over the limit" }
            evidence += "; limit \(limitText))"
            return median <= limitMilliseconds ? .passed(evidence) : .failed(evidence)
        }
    }

    /// How a timed call ended: an answer (a result or the extension's own error counts: the
    /// shape checks judge those), a missed deadline, or a failure the host saw.
    enum CallEnd {
        case answered
        case missed
        case failed(ExtensionCallError)
    }

    /// ``wroteInstead(_:)`` for a failed outcome.
    static func wroteInstead(_ outcome: CallOutcome<JSONValue>) -> String {
        guard case .failure(let error) = outcome.result else { return "" }
        return wroteInstead(error)
    }

    static func classify(_ outcome: CallOutcome<JSONValue>) -> CallEnd {
        switch outcome.result {
        case .success: return .answered
        case .failure(let error) where error.kind == .extensionError: return .answered
        case .failure(let error) where error.kind == .deadlineExceeded: return .missed
        case .failure(let error): return .failed(error)
        }
    }

    private static func timingSkip(_ method: String, _ context: ConformanceContext) -> ConformanceVerdict? {
        guard context.implements(method) else {
            return .skipped("skipped: \(context.executableName) does not implement \(method)")
        }
        guard context.exercise(for: method).standalone else {
            return .skipped("skipped: \(method) needs the results of earlier calls, so it cannot be timed on its own")
        }
        return nil
    }
}

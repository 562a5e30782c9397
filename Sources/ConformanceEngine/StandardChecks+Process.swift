import Foundation
import WalletHostRuntime
import WalletWire

/// `honours-cancel`, `concurrent-calls` and `exits-on-exit`: how the extension behaves as a
/// process the host drives, probed with the point's cheapest standalone method.
extension StandardChecks {
    static let honoursCancel = ConformanceCheckDefinition(
        id: "honours-cancel", title: "Answers a call cancelled with $/cancelRequest, stays alive and keeps working"
    ) { context in
        guard let method = context.probeMethod else {
            return .skipped("skipped: no method the extension implements can be called on its own")
        }
        let params = context.standaloneParameters(method)
        let grace = HumanReadable.duration(context.options.configuration.hangGrace)
        let (runner, events) = context.makeRunner()
        if case .failure(let error) = await runner.prewarm() {
            await runner.stop(reason: "conformance: cancellation checked")
            return .failed("no process to cancel a call on: \(error.message)")
        }
        let pid = runner.pid
        // A fast extension can answer before the cancel goes out, more often on a loaded
        // machine; each try is one warm call, so trying many times costs little.
        let tries = 20
        for _ in 1...tries {
            let start = events.count
            // A deadline of zero: the host sends $/cancelRequest as soon as the call is on its way.
            let outcome = await context.call(runner, method, params: params, deadline: .zero)
            switch classify(outcome) {
            case .answered:
                continue  // it answered before the cancel went out; try again
            case .failed(let error):
                await runner.stop(reason: "conformance: cancellation checked")
                return .failed(failureSentence(method, error))
            case .missed:
                let aftermath = await context.aftermath(of: method, in: events, since: start)
                let cancelledAtOnce = "\(method) was cancelled as soon as it was sent (deadline 0 ms)"
                switch aftermath {
                case .answered: break
                case .ended(let reason):
                    await runner.stop(reason: "conformance: cancellation checked")
                    return .failed("\(cancelledAtOnce), and the process ended before it answered: \(reason)")
                case .hung, .silent:
                    await runner.stop(reason: "conformance: cancellation checked")
                    return .failed("\(cancelledAtOnce), and the extension sent nothing for it within the \(grace) grace"
                                   + afterwards(aftermath))
                }
                guard case .answered(let milliseconds, let acknowledged) = aftermath else { continue }
                let answer = acknowledged
                    ? "acknowledged with -32002 \(HumanReadable.milliseconds(milliseconds)) after the ask"
                    : "answered \(HumanReadable.milliseconds(milliseconds)) after the ask (dropped as late)"
                let next = await context.call(runner, method, params: params, deadline: context.patience(for: method))
                let samePID = runner.pid == pid
                await runner.stop(reason: "conformance: cancellation checked")
                let cancelled = "\(cancelledAtOnce); the extension \(answer)"
                if !events.events(.hung).isEmpty {
                    return .failed(cancelled + ", but was then declared hung")
                }
                if case .failed(let error) = classify(next) {
                    return .failed(cancelled + ", but the next call failed: \(failureSentence(method, error))")
                }
                if case .missed = classify(next) {
                    return .failed(cancelled + ", but the next \(method) gave no answer within "
                                   + HumanReadable.duration(context.patience(for: method)))
                }
                guard samePID else { return .failed(cancelled + ", but its process did not survive") }
                return .passed(cancelled + ", and the next \(method) on the same process answered in "
                               + HumanReadable.milliseconds(next.totalMilliseconds))
            }
        }
        await runner.stop(reason: "conformance: cancellation checked")
        return .skipped("skipped: \(method) answered before $/cancelRequest could be sent, \(tries) times out of \(tries)")
    }

    static let concurrentCalls = ConformanceCheckDefinition(
        id: "concurrent-calls", title: "Answers several calls in flight at once"
    ) { context in
        guard let method = context.probeMethod else {
            return .skipped("skipped: no method the extension implements can be called on its own")
        }
        let params = context.standaloneParameters(method)
        let count = max(2, context.options.concurrentCalls)
        let patience = context.patience(for: method)
        let (runner, _) = context.makeRunner()
        if case .failure(let error) = await runner.prewarm() {
            await runner.stop(reason: "conformance: concurrency checked")
            return .failed("no process to call: \(error.message)")
        }
        let started = ContinuousClock.now
        let outcomes = await withTaskGroup(of: CallOutcome<JSONValue>.self) { group in
            for _ in 0..<count {
                group.addTask { await context.call(runner, method, params: params, deadline: patience) }
            }
            var outcomes: [CallOutcome<JSONValue>] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let elapsed = (.now - started).milliseconds
        await runner.stop(reason: "conformance: concurrency checked")
        let failures = outcomes.compactMap { outcome -> ExtensionCallError? in
            if case .failure(let error) = outcome.result { return error }
            return nil
        }
        guard let first = failures.first else {
            return .passed("\(count) \(method) calls sent at once were all answered within \(HumanReadable.milliseconds(elapsed))")
        }
        return .failed("\(failures.count) of \(count) \(method) calls sent at once failed; the first: "
                       + (first.kind == .deadlineExceeded
                           ? "no answer within \(HumanReadable.duration(patience))"
                           : failureSentence(method, first)))
    }

    static let exitsOnExit = ConformanceCheckDefinition(
        id: "exits-on-exit", title: "Exits with status 0 on shutdown and exit, without being signalled"
    ) { context in
        let (runner, events) = context.makeRunner(judgingExit: true)
        var note = ""
        if case .failure(let error) = await runner.prewarm() {
            await runner.stop(reason: "conformance: exit checked")
            return .failed("no process to ask: \(error.message)")
        }
        // A call first, so that anything the extension starts lazily is running when it is asked to exit.
        if let method = context.probeMethod {
            let outcome = await context.call(runner, method, params: context.standaloneParameters(method),
                                             deadline: context.patience(for: method))
            if case .failure = outcome.result {
                // Judge the exit on its own: start a fresh process and ask it straight away.
                await runner.stop(reason: "conformance: \(method) failed before the exit check")
                note = " (asked right after launch: \(method) had failed)"
                if case .failure(let error) = await runner.prewarm() {
                    await runner.stop(reason: "conformance: exit checked")
                    return .failed("no process to ask: \(error.message)")
                }
            }
        }
        let started = ContinuousClock.now
        guard let exit = await runner.stop(reason: "conformance: asked to exit") else {
            return .failed("the process ended before it could be asked to exit")
        }
        let elapsed = HumanReadable.milliseconds((.now - started).milliseconds)
        let process = "\(exit.executableName)[\(exit.pid)]"
        let signals = events.events(.kill).filter { $0.pid == exit.pid }.map(\.message)
        if !signals.isEmpty {
            return .failed("\(process) did not exit after shutdown and exit\(note): the host sent "
                           + signals.joined(separator: ", then ") + "; it \(exit.status.sentence) after \(elapsed)")
        }
        guard exit.status == .exited(0) else {
            return .failed("\(process) ended after shutdown and exit\(note), but it \(exit.status.sentence) (expected status 0)")
        }
        return .passed("\(process) exited with status 0 \(elapsed) after the host sent shutdown and exit\(note); no signal was needed")
    }

}

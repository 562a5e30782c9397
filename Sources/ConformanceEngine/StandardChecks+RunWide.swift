import Foundation
import WalletHostRuntime

/// `memory-limit`, `fd4-protocol-only` and `exactly-once`: judged over every event of the run,
/// after every other check (and every process it started) has finished.
extension StandardChecks {
    static let memoryLimit = ConformanceCheckDefinition(
        id: "memory-limit", title: "Stays under its memory limit in every call"
    ) { context in
        let events = context.events.events
        let limit = context.options.configuration.memoryLimit(at: context.point)
        let limitText = HumanReadable.megabytes(limit)
        let peak = events.compactMap(\.footprintBytes).max()
        let peakText = peak.map { "peak footprint \(HumanReadable.megabytes($0))" } ?? "no footprint sampled"
        let scope = runScope(events)
        let deaths = events.compactMap { event -> String? in
            guard case .exit(let exit) = event.payload, case .memoryLimit = exit.cause else { return nil }
            return exit.description
        }
        if let death = deaths.first ?? context.memoryDeaths.first {
            let count = max(deaths.count, 1)
            // No peak here: an allocation the rlimit refuses never shows up as footprint.
            return .failed("\(death)" + (count > 1 ? ", and \(count - 1) more memory deaths" : "")
                           + " \(scope) (limit \(limitText))")
        }
        guard let peak else { return .skipped("skipped: no call's footprint was sampled \(scope)") }
        guard peak <= limit else { return .failed("\(peakText) \(scope) is over the limit of \(limitText)") }
        return .passed("\(peakText) \(scope) (limit \(limitText), \(Int((Double(peak) / Double(limit) * 100).rounded()))% of it)")
    }

    static let protocolOnly = ConformanceCheckDefinition(
        id: "fd4-protocol-only", title: "Writes nothing but JSON-RPC on fd 4"
    ) { context in
        let events = context.events.events
        let problems = events.filter { $0.kind == .protocolError || $0.kind == .unknownResponse }
        let logLines = context.events.outputLines.count { $0.hasPrefix("stdout: ") || $0.hasPrefix("stderr: ") }
        let scope = runScope(events)
        guard let first = problems.first else {
            var evidence = "no malformed line, unknown notification or stray response on fd 4 \(scope)"
            if logLines > 0 {
                evidence += "; \(HumanReadable.counted(logLines, "line")) on stdout and stderr went to the log, never read as protocol"
            }
            return .passed(evidence)
        }
        return .failed("\(HumanReadable.counted(problems.count, "protocol error")) on fd 4 \(scope); the first: "
                       + first.message)
    }

    static let exactlyOnce = ConformanceCheckDefinition(
        id: "exactly-once", title: "Completes each call exactly once"
    ) { context in
        let events = context.events.events
        let answered = events.count { [.result, .error, .lateCompletion].contains($0.kind) }
        let doubles = events.filter { $0.kind == .doubleCompletion }
        let hung = events.filter { $0.kind == .hung }
        let scope = runScope(events)
        if let first = doubles.first {
            return .failed("\(HumanReadable.counted(doubles.count, "second response")) to a request already answered "
                           + "\(scope); the first: \(first.message)")
        }
        if let first = hung.first {
            return .failed("\(HumanReadable.counted(hung.count, "call")) never answered \(scope): "
                           + first.message)
        }
        return .passed("no second response to any request and no call left unanswered by a live process \(scope) "
                       + "(\(HumanReadable.counted(answered, "answer")))")
    }

    /// "over 31 calls in 9 processes".
    private static func runScope(_ events: [HostEvent]) -> String {
        let calls = events.count { $0.kind == .call }
        let processes = events.count { $0.kind == .spawn }
        return "over \(HumanReadable.counted(calls, "request")) in \(HumanReadable.counted(processes, "process", plural: "processes"))"
    }
}

import Foundation
import WalletHostRuntime

/// What `call` says on stderr while a call is slow: after a second without an answer, that it is
/// waiting and for how long it may, then every few seconds how long it has been. A quick call
/// (status) prints nothing; a slow one (passEntries taking seconds) is never silent until the end.
struct CallProgress: Sendable {
    /// The method called and the extension that runs it.
    let method: String
    let executable: String
    /// The method's deadline, when known.
    let deadline: Duration?
    /// When the first line is written, and how often the next ones are.
    var firstAfter: Duration = .seconds(1)
    var every: Duration = .seconds(5)

    /// Runs `work`, reporting on stderr while it has not finished.
    func reporting<T: Sendable>(_ work: () async throws -> T) async rethrows -> T {
        let reporter = Task {
            let started = ContinuousClock.now
            try await Task.sleep(for: firstAfter)
            if let deadline, ContinuousClock.now - started > deadline {
                // Past the deadline the host waits out the hang grace to say how the call ended.
                StandardError.write("wallet-host: \(method) on \(executable) missed its \(HumanReadable.duration(deadline)) deadline; "
                                        + "waiting to see whether it answers late…\n")
            } else {
                let limit = deadline.map { " (deadline \(HumanReadable.duration($0)))" } ?? ""
                StandardError.write("wallet-host: calling \(method) on \(executable), no answer yet\(limit)…\n")
            }
            while true {
                try await Task.sleep(for: every)
                let waited = HumanReadable.milliseconds((ContinuousClock.now - started).milliseconds)
                StandardError.write("wallet-host: still waiting for \(method) after \(waited)…\n")
            }
        }
        defer { reporter.cancel() }
        return try await work()
    }
}

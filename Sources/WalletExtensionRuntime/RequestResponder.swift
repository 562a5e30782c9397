import Synchronization
import WalletWire

/// How a call ended: a result to encode, or an error.
package enum CallOutcome: Sendable {
    case result(any Encodable & Sendable)
    case failure(RPCErrorObject)
}

/// Where a responder's single answer goes; the runtime in a process, a recorder in tests.
package protocol ResponseChannel: Sendable {
    /// Writes the response for `id`.
    func deliver(id: RequestID, outcome: CallOutcome)
    /// The call with this id will not be answered again; forget it.
    func requestFinished(id: RequestID)
}

/// Answers one call exactly once.
///
/// PassKit's completion handlers are single-shot; so is this. The first completion is sent,
/// a second one is dropped and reported on stderr. When the host cancels the call
/// (`$/cancelRequest`, its deadline passed) the cancellation handlers run (an async handler's
/// task is cancelled) and the handler's completion, whenever it comes, is still sent: the host
/// logs it as a late completion with the time it really took, which is what the extension's
/// author needs to see ("status took 152 ms"), and it tells the host the extension is not hung.
package final class RequestResponder: Sendable {
    private enum Phase {
        case running(cancellationHandlers: [@Sendable () -> Void], keepAlive: UncheckedSendable<AnyObject>?)
        case answered
        case cancelled
    }

    /// The host's id of the call.
    package let id: RequestID
    /// The wire method, for messages to people.
    package let method: String
    private let channel: any ResponseChannel
    private let phase = Mutex(Phase.running(cancellationHandlers: [], keepAlive: nil))
    /// Testing SPI: every completion goes on the wire, whatever the phase.
    package let singleShotGuardDisabled = Atomic<Bool>(false)

    package init(id: RequestID, method: String, channel: any ResponseChannel) {
        self.id = id
        self.method = method
        self.channel = channel
    }

    /// True once the host has cancelled the call.
    package var isCancelled: Bool {
        phase.withLock { phase in
            if case .cancelled = phase { return true }
            return false
        }
    }

    /// Sends the answer if this is the first completion.
    /// - Returns: `true` when the answer was sent, `false` when it was dropped.
    @discardableResult
    package func complete(_ outcome: CallOutcome) -> Bool {
        if singleShotGuardDisabled.load(ordering: .relaxed) {
            deliverBypassingSingleShotGuard(outcome)
            return true
        }
        enum Verdict { case send, twice, afterCancel }
        let verdict: Verdict = phase.withLock { phase in
            switch phase {
            case .running:
                phase = .answered
                return .send
            case .answered:
                return .twice
            case .cancelled:
                phase = .answered
                return .afterCancel
            }
        }
        switch verdict {
        case .send:
            channel.deliver(id: id, outcome: outcome)
            channel.requestFinished(id: id)
            return true
        case .twice:
            Diagnostics.log("completion called twice for \(method) (request \(id)); the second completion is dropped")
            return false
        case .afterCancel:
            Diagnostics.log("\(method) (request \(id)) completed after the host cancelled it; sent late")
            channel.deliver(id: id, outcome: outcome)
            channel.requestFinished(id: id)
            return true
        }
    }

    /// Runs the cancellation handlers (for example cancelling the Swift task of an async
    /// handler) if the call is still running. The eventual completion is still sent.
    package func cancel() {
        let handlers: [@Sendable () -> Void]? = phase.withLock { phase in
            guard case .running(let handlers, _) = phase else { return nil }
            phase = .cancelled
            return handlers
        }
        guard let handlers else { return }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when the host cancels the call; at once if it already has.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = phase.withLock { phase in
            switch phase {
            case .running(var handlers, let keepAlive):
                handlers.append(handler)
                phase = .running(cancellationHandlers: handlers, keepAlive: keepAlive)
                return false
            case .cancelled:
                return true
            case .answered:
                return false
            }
        }
        if runNow { handler() }
    }

    /// Keeps `object` alive until the call is answered or cancelled, as a presented view
    /// controller is kept alive by its presenter.
    package func keepAlive(_ object: AnyObject) {
        phase.withLock { phase in
            if case .running(let handlers, _) = phase {
                phase = .running(cancellationHandlers: handlers, keepAlive: UncheckedSendable(object))
            }
        }
    }

    /// Testing SPI: writes a response for this call's id whatever the phase. A call still
    /// running counts as answered afterwards.
    package func deliverBypassingSingleShotGuard(_ outcome: CallOutcome) {
        markAnsweredIfRunning()
        channel.deliver(id: id, outcome: outcome)
    }

    /// Testing SPI: writes raw bytes in place of this call's response, as
    /// ``deliverBypassingSingleShotGuard(_:)`` does for an outcome.
    package func writeBypassingSingleShotGuard(_ write: () -> Void) {
        markAnsweredIfRunning()
        write()
    }

    private func markAnsweredIfRunning() {
        let wasRunning = phase.withLock { phase in
            guard case .running = phase else { return false }
            phase = .answered
            return true
        }
        if wasRunning { channel.requestFinished(id: id) }
    }
}

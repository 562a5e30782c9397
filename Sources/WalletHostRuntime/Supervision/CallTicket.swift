import Synchronization

/// One call to an extension, as its caller holds it: whoever answers first (the extension's
/// reply, or the caller's ``cancel()``) answers the call, and only once.
///
/// Made by the caller before it starts the call (``ExtensionRunner/start(_:params:resultType:deadline:ticket:completion:)``),
/// so a cancel that comes before the call was even sent is not lost: the call then fails at once.
public final class CallTicket: Sendable {
    private struct State {
        var answered = false
        var cancelled = false
        /// Tells the extension (once the call is under way).
        var cancelTarget: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// A ticket for a call about to start.
    public init() {}

    /// Whether the caller cancelled the call.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the call: its completion gets a ``ExtensionCallError/Kind/cancelled`` outcome at
    /// once (unless it was answered already), and the extension gets `$/cancelRequest`.
    public func cancel() {
        let target = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.cancelTarget = nil }
            return state.cancelTarget
        }
        target?()
    }

    /// Sets what cancelling does now that the call is under way; runs it at once when the call
    /// was cancelled already.
    func onCancel(_ target: @escaping @Sendable () -> Void) {
        let cancelledAlready = state.withLock { state -> Bool in
            if state.cancelled { return true }
            // Once answered there is nothing to cancel; a target kept would hold the connection.
            if !state.answered { state.cancelTarget = target }
            return false
        }
        if cancelledAlready { target() }
    }

    /// Claims the call's one answer, and lets go of the cancel target (it captures the ticket:
    /// kept, the two would hold each other and the connection for good).
    /// - Returns: false when it was answered already.
    func claimAnswer() -> Bool {
        state.withLock { state in
            defer {
                state.answered = true
                state.cancelTarget = nil
            }
            return !state.answered
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// How the host stops an extension, as data: graceful steps, each followed by a wait for the
/// exit, and always a final `SIGKILL` to the process group (which cannot be left out).
public struct Teardown: Sendable, Equatable {
    /// One graceful step.
    public enum Action: Sendable, Equatable {
        /// The `shutdown` request; the wait is its deadline.
        case shutdownRequest
        /// The `exit` notification.
        case exitNotification
        /// A signal to the process group.
        case signal(Int32)
    }

    /// A step and how long to wait for the exit after it before the next.
    public struct Step: Sendable, Equatable {
        public var action: Action
        public var grace: Duration
        public init(_ action: Action, grace: Duration) {
            self.action = action
            self.grace = grace
        }
    }

    /// The graceful steps, in order.
    public var steps: [Step]
    /// After the final `SIGKILL`, how long to wait for the kernel to let the process go.
    public var reapTimeout: Duration

    public init(steps: [Step], reapTimeout: Duration = .seconds(10)) {
        self.steps = steps
        self.reapTimeout = reapTimeout
    }

    /// `shutdown` (grace), `exit` (grace), `SIGTERM` to the group (grace), then `SIGKILL`.
    public static func standard(grace: Duration) -> Teardown {
        Teardown(steps: [Step(.shutdownRequest, grace: grace), Step(.exitNotification, grace: grace),
                         Step(.signal(SIGTERM), grace: grace)])
    }

    /// For an extension that is already beyond use (hung, beyond repair, fd 4 closed): no
    /// protocol, `SIGTERM` (grace), then `SIGKILL`.
    public static func abandon(grace: Duration) -> Teardown {
        Teardown(steps: [Step(.signal(SIGTERM), grace: grace)])
    }
}

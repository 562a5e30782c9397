import Foundation
import WalletHostRuntime
import WalletWire

/// Calls a method with the result type the method table (``WireMethods``) gives it, so a
/// result of the wrong shape is reported as such, and hands back the typed result, decoded
/// once, for printing. A method not in the table is called for any JSON value.
public enum MethodResultShape {
    /// - Parameter deadline: the call's deadline, from now; nil for the configured one.
    public static func call(_ runner: ExtensionRunner, method: String, params: JSONValue, deadline: Duration? = nil) async
        -> CallOutcome<any Encodable & Sendable> {
        let ticket = CallTicket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(runner, method: method, params: params, deadline: deadline, ticket: ticket) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Starts the call on this thread (``ExtensionRunner/start(_:params:resultType:deadline:ticket:completion:)``):
    /// `completion` gets the outcome on the thread that settles it.
    /// - Parameters:
    ///   - deadline: the call's deadline, from now; nil for the configured one.
    ///   - ticket: cancels the call.
    public static func start(_ runner: ExtensionRunner, method: String, params: JSONValue, deadline: Duration? = nil,
                             ticket: CallTicket, completion: @escaping @Sendable (CallOutcome<any Encodable & Sendable>) -> Void) {
        let deadline = deadline.map(CallDeadline.after) ?? .configured
        guard let entry = WireMethods.named(method) else {
            return start(runner, method, params, JSONValue.self, deadline, ticket, completion)
        }
        start(runner, entry, params, deadline, ticket, completion)
    }

    /// Opens the table entry to reach its result type.
    private static func start<Method: WireMethodDescribing>(_ runner: ExtensionRunner, _ method: Method, _ params: JSONValue,
                                                            _ deadline: CallDeadline, _ ticket: CallTicket,
                                                            _ completion: @escaping @Sendable (CallOutcome<any Encodable & Sendable>) -> Void) {
        start(runner, method.name, params, Method.Result.self, deadline, ticket, completion)
    }

    private static func start<Result: Codable & Sendable>(_ runner: ExtensionRunner, _ method: String, _ params: JSONValue,
                                                          _ type: Result.Type, _ deadline: CallDeadline, _ ticket: CallTicket,
                                                          _ completion: @escaping @Sendable (CallOutcome<any Encodable & Sendable>) -> Void) {
        runner.start(method, params: params, resultType: type, deadline: deadline, ticket: ticket) { outcome in
            completion(erased(outcome))
        }
    }

    private static func erased<Result: Encodable & Sendable>(_ outcome: CallOutcome<Result>) -> CallOutcome<any Encodable & Sendable> {
        CallOutcome(method: outcome.method, result: outcome.result.map { $0 as any Encodable & Sendable },
                    launchMilliseconds: outcome.launchMilliseconds, launchedProcess: outcome.launchedProcess,
                    callMilliseconds: outcome.callMilliseconds,
                    totalMilliseconds: outcome.totalMilliseconds, peakFootprintBytes: outcome.peakFootprintBytes,
                    pid: outcome.pid, sandboxed: outcome.sandboxed, unsandboxedReason: outcome.unsandboxedReason,
                    deadline: outcome.deadline)
    }
}

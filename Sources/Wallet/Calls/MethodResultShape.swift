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
        let deadline = deadline ?? runner.configuration.deadline(for: method, at: runner.descriptor.point)
        guard let entry = WireMethods.named(method) else {
            return await call(runner, method, params, JSONValue.self, deadline)
        }
        return await call(runner, entry, params, deadline)
    }

    /// Opens the table entry to reach its result type.
    private static func call<Method: WireMethodDescribing>(_ runner: ExtensionRunner, _ method: Method, _ params: JSONValue,
                                                           _ deadline: Duration?)
        async -> CallOutcome<any Encodable & Sendable> {
        await call(runner, method.name, params, Method.Result.self, deadline)
    }

    private static func call<Result: Codable & Sendable>(_ runner: ExtensionRunner, _ method: String, _ params: JSONValue,
                                                         _ type: Result.Type, _ deadline: Duration?) async -> CallOutcome<any Encodable & Sendable> {
        erased(await runner.call(method, params: params, resultType: type, deadline: deadline))
    }

    /// ``call(_:method:params:deadline:)`` on the runner's warm process, answered on the thread
    /// that settles it (``ExtensionRunner/callWarm(_:params:resultType:deadline:completion:)``).
    /// - Returns: false when the runner has no warm process (nothing was sent).
    public static func callWarm(_ runner: ExtensionRunner, method: String, params: JSONValue, deadline: Duration? = nil,
                                completion: @escaping @Sendable (CallOutcome<any Encodable & Sendable>) -> Void) -> Bool {
        guard let entry = WireMethods.named(method) else {
            return callWarm(runner, method, params, JSONValue.self, deadline, completion)
        }
        return callWarm(runner, entry, params, deadline, completion)
    }

    private static func callWarm<Method: WireMethodDescribing>(_ runner: ExtensionRunner, _ method: Method, _ params: JSONValue,
                                                               _ deadline: Duration?,
                                                               _ completion: @escaping @Sendable (CallOutcome<any Encodable & Sendable>) -> Void)
        -> Bool {
        callWarm(runner, method.name, params, Method.Result.self, deadline, completion)
    }

    private static func callWarm<Result: Codable & Sendable>(_ runner: ExtensionRunner, _ method: String, _ params: JSONValue,
                                                             _ type: Result.Type, _ deadline: Duration?,
                                                             _ completion: @escaping @Sendable (CallOutcome<any Encodable & Sendable>) -> Void)
        -> Bool {
        runner.callWarm(method, params: params, resultType: type, deadline: deadline) { outcome in
            completion(erased(outcome))
        }
    }

    private static func erased<Result: Encodable & Sendable>(_ outcome: CallOutcome<Result>) -> CallOutcome<any Encodable & Sendable> {
        CallOutcome(method: outcome.method, result: outcome.result.map { $0 as any Encodable & Sendable },
                    launchMilliseconds: outcome.launchMilliseconds, launchedProcess: outcome.launchedProcess,
                    callMilliseconds: outcome.callMilliseconds,
                    totalMilliseconds: outcome.totalMilliseconds, peakFootprintBytes: outcome.peakFootprintBytes,
                    pid: outcome.pid, sandboxed: outcome.sandboxed, unsandboxedReason: outcome.unsandboxedReason)
    }
}

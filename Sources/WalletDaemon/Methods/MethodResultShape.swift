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
        let outcome = await runner.call(method, params: params, resultType: type, deadline: deadline)
        return CallOutcome(method: outcome.method, result: outcome.result.map { $0 as any Encodable & Sendable },
                           launchMilliseconds: outcome.launchMilliseconds, launchedProcess: outcome.launchedProcess,
                           callMilliseconds: outcome.callMilliseconds,
                           totalMilliseconds: outcome.totalMilliseconds, peakFootprintBytes: outcome.peakFootprintBytes,
                           pid: outcome.pid, sandboxed: outcome.sandboxed, unsandboxedReason: outcome.unsandboxedReason)
    }
}

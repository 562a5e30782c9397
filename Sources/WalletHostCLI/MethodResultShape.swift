import Foundation
import WalletHostCore
import WalletWire

/// Calls a method with the result type the method table (``WireMethods``) gives it, so a
/// result of the wrong shape is reported as such, and hands back the typed result, decoded
/// once, for printing. A method not in the table is called for any JSON value.
enum MethodResultShape {
    static func call(_ runner: ExtensionRunner, method: String, params: JSONValue) async
        -> CallOutcome<any Encodable & Sendable> {
        guard let entry = WireMethods.named(method) else {
            return await call(runner, method, params, JSONValue.self)
        }
        return await call(runner, entry, params)
    }

    /// Opens the table entry to reach its result type.
    private static func call<Method: WireMethodDescribing>(_ runner: ExtensionRunner, _ method: Method, _ params: JSONValue)
        async -> CallOutcome<any Encodable & Sendable> {
        await call(runner, method.name, params, Method.Result.self)
    }

    private static func call<Result: Codable & Sendable>(_ runner: ExtensionRunner, _ method: String, _ params: JSONValue,
                                                         _ type: Result.Type) async -> CallOutcome<any Encodable & Sendable> {
        let outcome = await runner.call(method, params: params, resultType: type)
        return CallOutcome(method: outcome.method, result: outcome.result.map { $0 as any Encodable & Sendable },
                           launchMilliseconds: outcome.launchMilliseconds, launchedProcess: outcome.launchedProcess,
                           callMilliseconds: outcome.callMilliseconds,
                           totalMilliseconds: outcome.totalMilliseconds, peakFootprintBytes: outcome.peakFootprintBytes,
                           pid: outcome.pid)
    }
}

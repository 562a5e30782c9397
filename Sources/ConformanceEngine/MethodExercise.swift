import Foundation
import WalletWire

/// How to call one method in a conformance run and how to judge the shape of its result.
public struct MethodExercise: Sendable {
    /// The parameters to call with, or why the method cannot be called (yet).
    public enum Parameters: Sendable {
        case ready(JSONValue)
        /// A sentence saying why there is nothing sensible to call it with; the check is skipped.
        case unavailable(String)
    }

    /// What the shape of a result says.
    public enum Judgement: Sendable {
        /// The result has the documented shape; a short summary of it for the evidence.
        case valid(summary: String)
        /// The result does not have the documented shape; a sentence naming the bad key.
        case invalid(problem: String)
    }

    public var method: String
    /// True when the parameters need no earlier call: such a method can probe the extension
    /// (cold and warm timing, cancellation, concurrent calls).
    public var standalone: Bool
    /// The parameters, possibly built from earlier results (``ConformanceContext/result(of:)``).
    public var parameters: @Sendable (ConformanceContext) -> Parameters
    /// Judges a result's shape.
    public var judge: @Sendable (JSONValue) -> Judgement
    /// Why the host application would never call the method in this run, judged from earlier
    /// results (Wallet never calls `remotePassEntries` while status offers no remote entries);
    /// nil when it would. A method that is not implemented passes its shape check when this
    /// gives a reason.
    public var notCalledBecause: @Sendable (ConformanceContext) -> String? = { _ in nil }

    /// Creates an exercise.
    /// - Parameters:
    ///   - method: The method's wire name.
    ///   - standalone: Whether the parameters need no earlier call.
    ///   - parameters: Builds the parameters.
    ///   - judge: Judges a result's shape.
    public init(method: String, standalone: Bool, parameters: @escaping @Sendable (ConformanceContext) -> Parameters,
                judge: @escaping @Sendable (JSONValue) -> Judgement) {
        self.method = method
        self.standalone = standalone
        self.parameters = parameters
        self.judge = judge
    }

    /// An exercise for a method of the table (``WireMethods``): its name from the entry, its
    /// result judged by decoding into the entry's result type.
    /// - Parameters:
    ///   - method: The table entry.
    ///   - standalone: Whether the parameters need no earlier call.
    ///   - parameters: Builds the parameters.
    ///   - summary: A short description of a decoded result, or a problem its type cannot express.
    public init<Method: WireMethodDescribing>(
        _ method: Method, standalone: Bool, parameters: @escaping @Sendable (ConformanceContext) -> Parameters,
        summary: @escaping @Sendable (Method.Result) -> Judgement
    ) {
        self.init(method: method.name, standalone: standalone, parameters: parameters,
                  judge: Self.decoding(Method.Result.self, summary: summary))
    }

    /// Called with `{}`; any JSON result passes.
    public static func untyped(_ method: String) -> MethodExercise {
        MethodExercise(method: method, standalone: true, parameters: { _ in .ready(.object([:])) },
                       judge: { _ in .valid(summary: "a JSON value (the profile documents no shape for \(method))") })
    }

    /// Judges by decoding into the documented type; `summary` describes a value that decoded.
    /// - Parameters:
    ///   - type: The documented result type.
    ///   - summary: A short description of a decoded value, or a problem the type cannot express.
    public static func decoding<Value: Decodable & SendableMetatype>(
        _ type: Value.Type, summary: @escaping @Sendable (Value) -> Judgement
    ) -> @Sendable (JSONValue) -> Judgement {
        { value in
            do {
                return summary(try value.decoded(as: Value.self))
            } catch {
                return .invalid(problem: WireCodec.describe(error))
            }
        }
    }
}

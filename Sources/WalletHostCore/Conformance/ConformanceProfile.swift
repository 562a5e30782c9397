import Foundation
import WalletWire

/// What the generic conformance engine needs to know about a family of extension points
/// beyond the registry: how to set up a run, how to call each method, and the checks that
/// only make sense there (Wallet's entry validation, for example).
public struct ConformanceProfile: Sendable {
    /// Loads and validates bundles; its registry says which points exist and their methods.
    public var loader: BundleLoader
    /// Prepares a run for a bundle that loaded: App Group containers, host services, and
    /// anything the platform does first (Wallet opens the containing app once).
    public var prepare: @Sendable (ExtensionBundle) async throws -> ConformanceEnvironment
    /// How to call each method; a method without one is called with `{}` and any JSON result passes.
    public var exercises: [MethodExercise]
    /// The profile's own checks for a point, run after the generic call checks.
    public var checks: @Sendable (ExtensionPoint) -> [ConformanceCheckDefinition]

    /// Creates a profile.
    /// - Parameters:
    ///   - loader: Loads bundles; its registry defines the points.
    ///   - prepare: Sets up a run for a loaded bundle.
    ///   - exercises: How to call each method.
    ///   - checks: The profile's own checks for a point.
    public init(loader: BundleLoader, prepare: @escaping @Sendable (ExtensionBundle) async throws -> ConformanceEnvironment,
                exercises: [MethodExercise], checks: @escaping @Sendable (ExtensionPoint) -> [ConformanceCheckDefinition]) {
        self.loader = loader
        self.prepare = prepare
        self.exercises = exercises
        self.checks = checks
    }
}

/// What a run gives the extension: App Group containers and the host's services.
public struct ConformanceEnvironment: Sendable {
    /// App Group identifier -> container directory.
    public var appGroups: [String: String]
    /// Answers the extension's service requests (pass library, user interface, ...).
    public var services: (any HostServiceProvider)?
    /// What was done to set up the run, for the report.
    public var notes: [String]

    /// Creates an environment.
    public init(appGroups: [String: String], services: (any HostServiceProvider)?, notes: [String] = []) {
        self.appGroups = appGroups
        self.services = services
        self.notes = notes
    }
}

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

/// How the conformance engine runs: the host configuration it starts from and how hard it probes.
public struct ConformanceOptions: Sendable {
    /// The host configuration every runner starts from: deadlines, memory limit, hang and
    /// stop grace, and where events go (they are also collected for the checks).
    public var configuration: HostConfiguration
    /// How many calls the `concurrent-calls` check sends at once.
    public var concurrentCalls = 8
    /// How many warm calls the warm deadline check measures (it judges their median).
    public var warmSamples = 5
    /// How many cold launches the cold deadline check may try: the first within the limit passes
    /// (a busy CI machine can slow one launch).
    public var coldAttempts = 3
    /// Methods whose deadline is at most this are timed cold and warm against it.
    public var timedDeadlineThreshold: Duration = .seconds(1)
    /// The longest a check waits for one call whose deadline is longer (Wallet's 20 s), so that a
    /// hanging extension does not hold up the run.
    public var callCap: Duration = .seconds(5)
    /// The least a check gives a call that is not being timed, however short its deadline: the
    /// shape, cancellation and concurrency checks judge answers, not speed.
    public var minimumPatience: Duration = .seconds(1)

    /// Creates options starting from a host configuration.
    public init(configuration: HostConfiguration = HostConfiguration()) {
        self.configuration = configuration
    }
}

extension JSONValue {
    /// This value decoded as `type`, as if it had come off the wire.
    /// - Throws: the decoder's error, naming the key.
    public func decoded<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: try JSONEncoder().encode(self))
    }

    /// Any encodable value as plain JSON.
    /// - Throws: the encoder's error.
    public init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }
}

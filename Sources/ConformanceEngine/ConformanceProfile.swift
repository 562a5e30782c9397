import Foundation
import WalletBundleInspection
import WalletHostRuntime
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

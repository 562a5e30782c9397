import Foundation

/// Whether an extension point shows UI (it decides memory limits and which host services it may use).
public enum ExtensionRole: String, Sendable, Codable {
    case nonUI
    case ui
}

/// What happens in Wallet when a method misses its deadline; used in messages to people.
public struct DeadlineConsequence: Sendable, Hashable {
    /// For example "Wallet would not list the app".
    public var summary: String

    public init(_ summary: String) {
        self.summary = summary
    }
}

/// One method of an extension point with its deadline.
public struct ExtensionMethod: Sendable, Hashable {
    public var name: String
    /// The time from Wallet's ask to the completion, launch included for a cold extension.
    public var deadline: Duration
    public var consequence: DeadlineConsequence

    public init(name: String, deadline: Duration, consequence: DeadlineConsequence) {
        self.name = name
        self.deadline = deadline
        self.consequence = consequence
    }
}

/// An extension point: its identifier, role, methods with deadlines and memory limit.
///
/// The runtime is generic: it runs the point it is given. Wallet's two points are rows of the
/// registry the Wallet module declares (`ExtensionPointRegistry.wallet`).
public struct ExtensionPoint: Sendable, Hashable {
    public var identifier: String
    public var role: ExtensionRole
    public var methods: [ExtensionMethod]
    /// The hard memory limit, enforced as `RLIMIT_DATA` and by footprint sampling.
    public var memoryLimitBytes: Int
    /// The short name the kernel uses in its kill message, e.g. "55 MB".
    public var memoryLimitDescription: String { "\(memoryLimitBytes / (1024 * 1024)) MB" }

    public init(identifier: String, role: ExtensionRole, methods: [ExtensionMethod], memoryLimitBytes: Int) {
        self.identifier = identifier
        self.role = role
        self.methods = methods
        self.memoryLimitBytes = memoryLimitBytes
    }

    /// The method named `name`, if this point defines it.
    public func method(named name: String) -> ExtensionMethod? {
        methods.first { $0.name == name }
    }
}

/// The known extension points, looked up by identifier.
public struct ExtensionPointRegistry: Sendable {
    public var points: [ExtensionPoint]

    public init(points: [ExtensionPoint]) {
        self.points = points
    }

    /// Every method of every point, each once, in the order the points declare them.
    public var methodNames: [String] {
        var names: [String] = []
        for method in points.flatMap(\.methods) where !names.contains(method.name) { names.append(method.name) }
        return names
    }

    /// The point with this identifier, if registered.
    public func point(_ identifier: String) -> ExtensionPoint? {
        points.first { $0.identifier == identifier }
    }
}

import WalletWire

/// The activation state of a ``WCSession`` (`WCSessionActivationState`).
public enum WCSessionActivationState: Int, Sendable, Hashable {
    case notActivated = 0
    case inactive = 1
    case activated = 2
}

/// Whether the iPhone has a paired Apple Watch, answered by the host's simulated device over
/// the `watch.isPaired` service. A small stand-in for WatchConnectivity's `WCSession`:
///
/// ```swift
/// let session = WCSession.default
/// if WCSession.isSupported() { session.activate() }
/// let paired = session.activationState == .activated && session.isPaired
/// ```
public final class WCSession: Sendable {
    /// The shared session.
    public static let `default` = WCSession()

    private init() {}

    /// Always true: the simulated iPhone supports watch connectivity.
    public static func isSupported() -> Bool { true }

    /// Activation is immediate; kept so that iOS code ports unchanged.
    public func activate() {}

    /// Always ``WCSessionActivationState/activated``.
    public var activationState: WCSessionActivationState { .activated }

    /// True when the simulated device has a paired Apple Watch. Blocks until the host answers;
    /// false (and a line on stderr) when it cannot.
    public var isPaired: Bool {
        do {
            return try HostServiceCall.send(WireMethod.watchIsPaired, params: NoParams(), expecting: Bool.self)
        } catch {
            Diagnostics.log("WCSession.isPaired is false: \(error)")
            return false
        }
    }

    /// The async form of ``isPaired``.
    public func isPairedWatchPresent() async -> Bool {
        do {
            return try await HostServiceCall.send(WireMethod.watchIsPaired, params: NoParams(), expecting: Bool.self)
        } catch {
            Diagnostics.log("WCSession.isPaired is false: \(error)")
            return false
        }
    }
}

/// The `WatchConnectivitySession` helper of Apple's sample, ready made: `isPaired` tells
/// whether the iPhone has a paired Apple Watch.
public final class WatchConnectivitySession: Sendable {
    private let session = WCSession.default

    public init() {
        session.activate()
    }

    /// True when the iPhone has a paired Apple Watch.
    public var isPaired: Bool {
        session.activationState == .activated && session.isPaired
    }
}

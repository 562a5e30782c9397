@_exported import Foundation
import Dispatch
import Synchronization
import WalletExtensionRuntime
import WalletWire

/// The activation state of a ``WCSession`` (`WCSessionActivationState`).
public enum WCSessionActivationState: Int, Sendable, Hashable {
    case notActivated = 0
    case inactive = 1
    case activated = 2
}

/// The delegate of a ``WCSession`` (`WCSessionDelegate`).
///
/// As on iOS, `session(_:activationDidCompleteWith:error:)` is called on a background queue
/// after ``WCSession/activate()`` returns; until then ``WCSession/activationState`` is
/// `.notActivated` and ``WCSession/isPaired`` is false.
public protocol WCSessionDelegate: NSObjectProtocol {
    /// Activation finished.
    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState,
                 error: (any Error)?)
    /// The session can no longer send to the watch (the user is switching watches).
    func sessionDidBecomeInactive(_ session: WCSession)
    /// The session was deactivated; activate it again to talk to the new watch.
    func sessionDidDeactivate(_ session: WCSession)
    /// The paired watch, the watch app or the complication changed.
    func sessionWatchStateDidChange(_ session: WCSession)
    /// The watch became reachable or unreachable.
    func sessionReachabilityDidChange(_ session: WCSession)
}

extension WCSessionDelegate {
    public func sessionWatchStateDidChange(_ session: WCSession) {}
    public func sessionReachabilityDidChange(_ session: WCSession) {}
}

/// The iPhone's session with its paired Apple Watch (`WCSession`): whether a watch is
/// paired, answered by the host's simulated device over the `watch.isPaired` service.
///
/// ```swift
/// let session = WCSession.default
/// if WCSession.isSupported() {
///     session.delegate = self
///     session.activate()   // activationDidCompleteWith follows on another queue
/// }
/// ```
open class WCSession: NSObject, @unchecked Sendable {
    // @unchecked: the mutable state (delegate, activation) is behind a lock.
    /// The delegate, held weakly; handed over under the lock.
    private final class WeakDelegate: @unchecked Sendable {
        weak var value: (any WCSessionDelegate)?
        init(_ value: (any WCSessionDelegate)?) { self.value = value }
    }

    private struct State {
        var delegate: WeakDelegate?
        var activationState = WCSessionActivationState.notActivated
    }

    private let state = Mutex(State())

    /// The shared session.
    public static let `default` = WCSession()

    private override init() {}

    /// True: the simulated iPhone supports watch connectivity.
    open class func isSupported() -> Bool { true }

    /// Receives activation and state changes. Held weakly, as on iOS.
    open var delegate: (any WCSessionDelegate)? {
        get { state.withLock { $0.delegate }?.value }
        set {
            let reference = WeakDelegate(newValue)
            state.withLock { $0.delegate = reference }
        }
    }

    /// `.notActivated` until activation completes, then `.activated`.
    open var activationState: WCSessionActivationState { state.withLock { $0.activationState } }

    /// Starts activation and returns at once; the delegate hears of the result on a
    /// background queue.
    open func activate() {
        DispatchQueue.global().async {
            self.state.withLock { $0.activationState = .activated }
            self.delegate?.session(self, activationDidCompleteWith: .activated, error: nil)
        }
    }

    /// True when the simulated device has a paired Apple Watch; false before activation
    /// completes (as on a device) or when the host cannot answer (with a line on stderr).
    /// Blocks until the host answers.
    open var isPaired: Bool {
        guard activationState == .activated else { return false }
        do {
            return try HostServiceCall.send(WireMethod.watchIsPaired, params: NoParams(), expecting: Bool.self)
        } catch {
            Diagnostics.log("WCSession.isPaired is false: \(error)")
            return false
        }
    }

    /// True when the paired watch has the issuer's watch app: the simulated watch has none.
    open var isWatchAppInstalled: Bool { false }

    /// False: the simulated watch app is never reachable for messages.
    open var isReachable: Bool { false }

    /// False: the simulated watch shows no complication.
    open var isComplicationEnabled: Bool { false }
}

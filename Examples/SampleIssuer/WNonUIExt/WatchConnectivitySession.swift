// WatchConnectivitySession.swift: whether the iPhone has a paired Apple Watch, with a
// WCSession activated at creation (the helper class of the Wallet Extensions guide).

import Dispatch
import WatchConnectivity

class WatchConnectivitySession: NSObject, WCSessionDelegate {
    let session = WCSession.default
    /// Signalled when activation completes. Activation is asynchronous (on a device too), and
    /// status runs right after the handler is created: it waits for activation a little
    /// instead of reading "not paired" from a session that is not active yet.
    private let activated = DispatchSemaphore(value: 0)

    override init() {
        super.init()
        if WCSession.isSupported() {
            session.delegate = self
            session.activate()
        }
    }

    /// True when the iPhone has a paired Apple Watch and the session is active.
    var isPaired: Bool {
        if session.activationState != .activated {
            _ = activated.wait(timeout: .now() + .milliseconds(30))
        }
        return session.activationState == .activated && session.isPaired
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
        if let error {
            log.error("WCSession activation failed: \(error.localizedDescription, privacy: .public)")
        }
        activated.signal()
    }

    func sessionDidBecomeInactive(_ session: WCSession) {}

    func sessionDidDeactivate(_ session: WCSession) {
        session.activate()
    }
}

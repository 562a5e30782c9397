// WatchConnectivitySession.swift: whether the iPhone has a paired Apple Watch, with a
// WCSession activated at creation (the helper class of the Wallet Extensions guide).

import WatchConnectivity

class WatchConnectivitySession: NSObject, WCSessionDelegate {
    let session = WCSession.default

    override init() {
        super.init()
        if WCSession.isSupported() {
            session.delegate = self
            session.activate()
        }
    }

    /// True when the iPhone has a paired Apple Watch and the session is active.
    var isPaired: Bool {
        session.activationState == .activated && session.isPaired
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
        if let error {
            log.error("WCSession activation failed: \(error.localizedDescription, privacy: .public)")
        }
    }

    func sessionDidBecomeInactive(_ session: WCSession) {}

    func sessionDidDeactivate(_ session: WCSession) {
        session.activate()
    }
}

// WatchConnectivitySession.swift
//
// Tells whether this iPhone has a paired Apple Watch.

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

    var isPaired: Bool {
        session.activationState == .activated ? session.isPaired : false
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
        if let error {
            log.error("watch session did not activate: \(error.localizedDescription)")
        }
    }

    func sessionDidBecomeInactive(_ session: WCSession) {}

    func sessionDidDeactivate(_ session: WCSession) {
        session.activate()
    }
}

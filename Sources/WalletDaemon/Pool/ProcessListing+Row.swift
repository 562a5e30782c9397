import Foundation
import WalletDaemonClient

extension ProcessListing {
    /// The listing of one row of the daemon's process table.
    init(row: ProcessTable.Row, pid: Int32?, path: String?, keepWarm: Bool, crashLooping: Bool) {
        let state: String
        if pid == nil {
            state = crashLooping ? "crash-looping" : "stopped"
        } else if row.callsInFlight > 0 {
            state = "busy"
        } else {
            state = keepWarm ? "warm" : "idle"
        }
        let uptime = pid.flatMap { row.starts[$0]?.time }.map { (Date().timeIntervalSince($0) * 10).rounded() / 10 }
        self.init(state: state, bundleIdentifier: row.bundleIdentifier, pid: pid, path: path, calls: row.calls,
                  deadlineMisses: row.deadlineMisses, peakFootprintBytes: row.peakFootprintBytes, launches: row.launches,
                  crashes: row.crashes, uptimeSeconds: uptime, lastError: row.lastError)
    }
}

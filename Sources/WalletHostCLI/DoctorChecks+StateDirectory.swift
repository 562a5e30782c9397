import Foundation
import Wallet

extension DoctorChecks {
    /// The default state directory (`$WALLET_HOST_STATE`, else the XDG one), checked as every
    /// command checks it (``StateDirectory/check()``): its owner and mode, every directory on
    /// its path, and `openat2`, through which the host opens everything in it.
    static func stateDirectory(_ state: StateDirectory = StateDirectory(url: StateDirectory.defaultURL)) -> DoctorFinding {
        do {
            guard try state.check() else {
                return DoctorFinding("state", .ok, "the state directory \(state.url.path) does not exist yet: the first command makes it, mode 0700")
            }
            return DoctorFinding("state", .ok, "the state directory \(state.url.path) is this user's, no other user can write to it "
                                 + "or to a directory on its path, and every path in it is opened without following a link")
        } catch {
            return DoctorFinding("state", .problem, "\(error): every command that uses it fails",
                                 fix: "do as the message says, or give the commands another --state (or $WALLET_HOST_STATE) of your own")
        }
    }
}

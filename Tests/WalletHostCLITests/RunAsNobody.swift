import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Running `wallet-host` as nobody (uid 65534) with setpriv: root reads and writes any file, so
/// as root the tests of files a user may not read or write run it as nobody.
enum RunAsNobody {
    static let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// The launcher for such a test: setpriv as root; none for any other user, whom the file
    /// modes refuse already.
    static var launcher: [String] { geteuid() == 0 ? setpriv : [] }

    /// Whether such a test can run here: not root, or root with a setpriv that lets nobody
    /// execute the built wallet-host (a clone under a directory closed to other users, such as
    /// /root, cannot be run by nobody).
    static let isPossible: Bool = geteuid() != 0 || canRun(BuildProducts.walletHost.path)

    /// Why such a test is not enabled where ``isPossible`` is false.
    static let impossible: Comment = """
        as root this runs wallet-host as nobody, and nobody cannot execute the built wallet-host here \
        (no /usr/bin/setpriv, or a directory above the clone is closed to other users)
        """

    /// Whether nobody can execute `path`: every directory above it must be searchable by nobody.
    private static func canRun(_ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv[0])
        process.arguments = Array(setpriv.dropFirst()) + ["/usr/bin/test", "-x", path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether the kernel lets this user make the namespaces the sandbox needs (some containers and
/// CI runners forbid them; there `--sandbox auto` runs extensions unsandboxed, and the tests of
/// what the sandbox holds back are not enabled).
public enum KernelNamespaces {
    /// Asked once, of `unshare`: a PID and a mount namespace (in a user namespace when not root).
    public static let available: Bool = {
        let unshare = "/usr/bin/unshare"
        guard FileManager.default.isExecutableFile(atPath: unshare) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unshare)
        process.arguments = (geteuid() == 0 ? [] : ["--user", "--map-current-user"]) + ["--pid", "--mount", "--fork", "/bin/true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}

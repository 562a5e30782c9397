import CWalletSpawn
import Foundation
import WalletHostRuntime

/// What `--network` needs: Landlock's scopes, a network namespace per extension, the egress
/// proxy's listener in it.
extension DoctorChecks {
    static func network() -> [DoctorFinding] {
        [landlockScopes(), networkNamespaces()]
    }

    static func landlockScopes() -> DoctorFinding {
        let abi = wh_landlock_abi()
        if abi >= 6 {
            return DoctorFinding("landlock", .ok, "Landlock ABI \(abi) has scopes: a sandboxed extension can connect to "
                                 + "no abstract Unix socket and signal no process outside its sandbox, whatever its --network")
        }
        let what = abi < 0 ? "the kernel has no Landlock (or it is not enabled: lsm= on the kernel command line)"
            : "Landlock ABI \(abi) has no scopes (they came with ABI 6, Linux 6.12)"
        return DoctorFinding("landlock", .warning, "\(what): only the extension's own network namespace keeps it from the "
                             + "host's abstract Unix sockets, so --network host leaves them reachable",
                             fix: "use --network proxy or none (the default is proxy), or a kernel with Landlock ABI 6")
    }

    static func networkNamespaces() -> DoctorFinding {
        let root = geteuid() == 0
        let result = wh_network_probe(root ? 0 : 1, Int32(NetworkMode.proxyPort))
        if result == 0 {
            return DoctorFinding("network", .ok, "each extension gets a network namespace of its own"
                                 + (root ? "" : " (in its user namespace)") + " with lo up, and the egress proxy can listen "
                                 + "on 127.0.0.1:\(NetworkMode.proxyPort) there: --network proxy (the default) and none work")
        }
        let step = switch result {
        case -1, -2, -3: "writing the user namespace's maps failed"
        case -4: "bringing lo up failed"
        case -5: "listening on 127.0.0.1:\(NetworkMode.proxyPort) failed"
        case let errno where errno > 0: "the kernel refused a network namespace (\(String(cString: strerror(errno))))"
        default: "the probe died"
        }
        return DoctorFinding("network", .problem, "\(step): every sandboxed launch with --network proxy or none fails",
                             fix: "allow network namespaces (CLONE_NEWNET; a container may need --privileged or "
                             + "--cap-add SYS_ADMIN), or run with --network host")
    }
}

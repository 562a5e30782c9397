import CWalletSpawn
#if canImport(Glibc)
import Glibc
#endif

extension SandboxPlan {
    /// The plan's root as the C side takes it (paths, user, the private `/tmp` and `/dev/shm`),
    /// without a launch's descriptors (no report pipe, no network, no template): what a template
    /// is built from ahead of the launch that uses it, and what a launch adds its descriptors to.
    /// The pointer, and the strings it points to, are valid inside `body` only.
    func withRootConfiguration<Result>(_ body: (UnsafePointer<wh_sandbox_config>) -> Result) -> Result {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        func cString(_ text: String?) -> UnsafePointer<CChar>? {
            guard let text, let copy = strdup(text) else { return nil }
            strings.append(copy)
            return UnsafePointer(copy)
        }
        let entries = grants.map { grant in
            wh_sandbox_path(path: cString(grant.path)!, writable: grant.writable ? 1 : 0,
                            anchor: cString(grant.anchor), name: cString(grant.name), alone: grant.alone ? 1 : 0)
        }
        return entries.withUnsafeBufferPointer { buffer in
            var config = wh_sandbox_config(
                paths: buffer.baseAddress!, path_count: Int32(buffer.count),
                user_namespace: runAs == nil ? 1 : 0, outer_uid: geteuid(), outer_gid: getegid(),
                run_as_uid: runAs.map { Int64($0.uid) } ?? -1, run_as_gid: runAs.map { Int64($0.gid) } ?? -1,
                tmp_bytes: Int64(temporaryBytes), status_fd: -1, failed_path_index: nil, template_fd: -1,
                tmp_inodes: Int64(temporaryInodes), shm_bytes: Int64(sharedMemoryBytes), shm_inodes: Int64(sharedMemoryInodes),
                own_network: 0, network_namespace_fd: -1, proxy_channel_fd: -1, proxy_port: 0)
            return withUnsafePointer(to: &config) { body($0) }
        }
    }
}

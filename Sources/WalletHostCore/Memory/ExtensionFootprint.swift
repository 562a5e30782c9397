import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The footprint of one extension, everything it runs counted (``MemoryUsage``): what the host
/// samples and compares with the memory limit.
///
/// With a control group (``ExtensionControlGroup``) a sample is two `pread`s of its files.
/// Without one it walks the extension's processes from `root` (the sandbox init, whose tree is
/// the PID namespace, or the unsandboxed extension) and adds the sandbox's private `/tmp`.
final class ExtensionFootprint: Sendable {
    /// The extension's own process: its footprint reader stays open (one `pread` a sample).
    let pid: pid_t
    /// Where the process tree starts.
    let root: pid_t
    let controlGroup: ExtensionControlGroup?
    private let ownFootprint: FootprintReader
    /// The sandbox's private `/tmp` (its tmpfs's root, opened through `/proc/INIT/root`); -1 unsandboxed.
    private let temporaryDirectory: Int32

    init(pid: pid_t, root: pid_t, sandboxed: Bool, controlGroup: ExtensionControlGroup?) {
        self.pid = pid
        self.root = root
        self.controlGroup = controlGroup
        ownFootprint = FootprintReader(pid: pid)
        temporaryDirectory = sandboxed && controlGroup == nil
            ? open("/proc/\(root)/root/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
    }

    deinit {
        if temporaryDirectory >= 0 { close(temporaryDirectory) }
    }

    /// The total now, in bytes; nil when nothing of the extension is left to count.
    func sample() -> Int? {
        if let controlGroup {
            return controlGroup.residentAndShared().map { $0.resident + $0.shared }
        }
        guard let own = ownFootprint.sample() else { return nil }
        let others = ProcessTree.members(root: root).filter { $0 != pid }
        return others.reduce(own) { $0 + (FootprintReader.footprintBytes(of: $1) ?? 0) } + temporaryBytes()
    }

    /// What the total is made of now: every process and its footprint, and shared memory.
    func usage() -> MemoryUsage {
        let members = controlGroup?.processes() ?? ProcessTree.members(root: root)
        let processes = members.compactMap { member -> MemoryUsage.Process? in
            guard let bytes = FootprintReader.footprintBytes(of: member) else { return nil }
            return MemoryUsage.Process(name: ProcessTree.name(of: member), pid: member, footprintBytes: bytes)
        }
        if let controlGroup, let counted = controlGroup.residentAndShared() {
            return MemoryUsage(totalBytes: counted.resident + counted.shared, processes: processes,
                               sharedBytes: counted.shared, accounting: .controlGroup)
        }
        let shared = temporaryBytes()
        return MemoryUsage(totalBytes: processes.reduce(shared) { $0 + $1.footprintBytes }, processes: processes,
                           sharedBytes: shared, accounting: .processes)
    }

    /// What the files in the sandbox's private `/tmp` hold (tmpfs pages are memory).
    private func temporaryBytes() -> Int {
        guard temporaryDirectory >= 0 else { return 0 }
        var status = statvfs()
        guard fstatvfs(temporaryDirectory, &status) == 0 else { return 0 }
        return Int(status.f_blocks - status.f_bfree) * Int(status.f_frsize)
    }
}

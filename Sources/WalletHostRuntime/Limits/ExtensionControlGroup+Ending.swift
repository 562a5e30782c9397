import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ExtensionControlGroup {
    /// Sends `SIGKILL` to every process in the group until none is left (a process may fork
    /// while the others die; `pids.max` bounds how many there can be), at most `timeout`.
    /// - Returns: whether the group is empty.
    @discardableResult
    func killEveryProcess(timeout: Duration = .seconds(2)) -> Bool {
        // A throttled process dies only when it runs: at 5% of a CPU, 100 of them took seconds.
        liftIdleQuota()
        let emptied = KernelWait.poll(within: timeout) { () -> Bool? in
            let members = processes()
            if members.isEmpty { return true }
            members.forEach { _ = kill($0, SIGKILL) }
            return nil
        }
        return emptied ?? false
    }

    /// Removes both groups once their processes are gone, retrying while the kernel finishes
    /// their exits (at most `timeout`).
    /// - Returns: whether both directories are gone.
    @discardableResult
    func remove(timeout: Duration = .seconds(2)) -> Bool {
        closeProcsDescriptors()
        closeDescriptors()
        var remaining = [memoryPath, pidsPath] + [cpuPath].compactMap { $0 }
        let removed = KernelWait.poll(within: timeout) { () -> Bool? in
            remaining.removeAll { rmdir($0) == 0 || errno == ENOENT }
            return remaining.isEmpty ? true : nil
        }
        return removed ?? false
    }
}

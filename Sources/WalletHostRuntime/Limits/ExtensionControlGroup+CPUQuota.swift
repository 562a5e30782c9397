import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ExtensionControlGroup {
    /// Whether the idle quota holds now.
    var idleQuotaIsImposed: Bool { idleQuotaImposed.load(ordering: .relaxed) }

    /// Bounds everything the extension runs to ``idleQuotaMicroseconds`` of each period (one
    /// write, about 0.7 µs; none when it holds already or there is no `cpu` group). The caller
    /// serializes it with ``liftIdleQuota()``.
    func imposeIdleQuota() {
        guard cpuQuota >= 0 else { return }
        quotaLock.withLock { _ in
            guard !idleQuotaImposed.load(ordering: .relaxed), !descriptorsClosed.load(ordering: .acquiring) else { return }
            idleQuotaImposed.store(true, ordering: .relaxed)
            _ = Self.writeNumber(Self.idleQuotaMicroseconds, to: cpuQuota)
        }
    }

    /// Lifts the idle quota (no lock and no write when it does not hold: a warm call's cost).
    func liftIdleQuota() {
        guard cpuQuota >= 0, idleQuotaImposed.load(ordering: .relaxed) else { return }
        quotaLock.withLock { _ in
            guard idleQuotaImposed.load(ordering: .relaxed), !descriptorsClosed.load(ordering: .acquiring) else { return }
            idleQuotaImposed.store(false, ordering: .relaxed)
            _ = Self.writeNumber(busyQuotaMicroseconds, to: cpuQuota)
        }
    }

    private static func writeNumber(_ value: Int, to fd: Int32) -> Bool {
        let text = String(value)
        return text.withCString { pwrite(fd, $0, strlen($0), 0) } == text.utf8.count
    }
}

import Foundation
import WalletDaemonClient
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per state directory: an exclusive `flock` on `<state>/wallet-host.pid`, which holds
/// the owner's pid. The kernel drops the lock when the owner dies however it dies, so a killed
/// daemon never blocks the next one; the pid in the file only serves the error message.
public final class DaemonLock: Sendable {
    /// The lock file.
    public let url: URL
    private let fd: Int32

    /// Takes the lock or says who holds it.
    /// - Throws: ``DaemonError`` naming the pid of the daemon that serves the directory.
    public init(stateDirectory: URL) throws {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        url = stateDirectory.appendingPathComponent("wallet-host.pid")
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw DaemonError("cannot open \(url.path): \(DaemonError.reason())") }
        if SystemCall.retryingInterrupts({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
            let code = errno
            let holder = Self.pid(in: fd)
            SystemCall.close(fd)
            if code == EWOULDBLOCK {
                let who = holder.map { "pid \($0)" } ?? "another process"
                throw DaemonError("a wallet-host daemon (\(who)) already serves \(stateDirectory.path) (it holds \(url.lastPathComponent)); stop it first or use another --state")
            }
            throw DaemonError("cannot lock \(url.path): \(DaemonError.reason(code))")
        }
        ftruncate(fd, 0)
        let text = "\(getpid())\n"
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
        self.fd = fd
    }

    /// Empties the pid file and drops the lock (at a normal stop).
    public func release() {
        ftruncate(fd, 0)
        SystemCall.close(fd)
    }

    private static func pid(in fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

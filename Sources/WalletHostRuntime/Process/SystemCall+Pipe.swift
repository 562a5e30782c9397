import CWalletSpawn
// The system calls (``SystemCall``, ``SystemCallError``) live in WalletSystemCalls, which the
// extensions' runtime shares; a file that imports the runtime sees them as before.
@_exported import WalletSystemCalls
#if canImport(Glibc)
import Glibc
#endif

extension SystemCall {
    /// A close-on-exec pipe: (read end, write end).
    package static func pipe(nonBlockingRead: Bool = false, nonBlockingWrite: Bool = false) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard wh_pipe_cloexec(&fds) == 0 else { throw SystemCallError("pipe2", errno: errno) }
        if nonBlockingRead { setNonBlocking(fds[0]) }
        if nonBlockingWrite { setNonBlocking(fds[1]) }
        return (fds[0], fds[1])
    }
}

#ifndef WALLET_CHAOS_H
#define WALLET_CHAOS_H

#include <sys/types.h>

#pragma clang assume_nonnull begin

/// How an attempt to close a descriptor inside another process went.
typedef enum {
    /// The thread ran close(2); `*out_result` holds its return value (0, or -errno).
    wh_chaos_closed = 0,
    /// ptrace refused to attach (`*out_errno` says why: EPERM, ESRCH, ...).
    wh_chaos_attach_failed = 1,
    /// The thread was not stopped just after a `syscall` instruction: try another thread.
    wh_chaos_no_syscall_site = 2,
    /// The thread did not stop in time (it may have exited): nothing was injected.
    wh_chaos_no_stop = 3,
    /// This architecture is not supported (x86_64 only).
    wh_chaos_unsupported = 4,
} wh_chaos_outcome;

/// Makes thread `tid` of another process run `close(fd)`, as if the process had closed the
/// descriptor itself (the fault "fd 4 closed" of `wallet-host stress --chaos close-fd4`).
///
/// Seizes the thread with ptrace, interrupts it, and when it is stopped just after a `syscall`
/// instruction (a thread blocked in read, futex, poll...) re-runs that instruction as close(fd)
/// by single-stepping, then restores its registers (the interrupted call restarts) and detaches.
/// Stops are awaited with `waitid(WSTOPPED | WNOHANG)` only, never `WEXITED`, so the exit of a
/// process the caller also supervises is never reaped here. Every ptrace request must come from
/// the calling thread: call it in one go.
wh_chaos_outcome wh_chaos_close_descriptor(pid_t tid, int fd, long *out_result, int *out_errno);

#pragma clang assume_nonnull end

#endif

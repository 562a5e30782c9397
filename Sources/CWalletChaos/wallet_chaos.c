#define _GNU_SOURCE
#include "wallet_chaos.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <sys/user.h>
#endif

/// Waits up to about 200 ms for `tid` to enter a ptrace stop. Returns 0 when it did.
static int wh_chaos_wait_stop(pid_t tid) {
    for (int attempt = 0; attempt < 2000; attempt++) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)tid, &info, WSTOPPED | WNOHANG | __WALL) == 0) {
            if (info.si_pid == tid) return 0;
        } else if (errno != EINTR) {
            return -1;
        }
        usleep(100);
    }
    return -1;
}

wh_chaos_outcome wh_chaos_close_descriptor(pid_t tid, int fd, long *out_result, int *out_errno) {
    *out_result = 0;
    *out_errno = 0;
#if defined(__x86_64__)
    if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) != 0) {
        *out_errno = errno;
        return wh_chaos_attach_failed;
    }
    if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) != 0 || wh_chaos_wait_stop(tid) != 0) {
        *out_errno = errno;
        ptrace(PTRACE_DETACH, tid, NULL, NULL);
        return wh_chaos_no_stop;
    }
    struct user_regs_struct saved;
    if (ptrace(PTRACE_GETREGS, tid, NULL, &saved) != 0) {
        *out_errno = errno;
        ptrace(PTRACE_DETACH, tid, NULL, NULL);
        return wh_chaos_no_stop;
    }
    errno = 0;
    long word = ptrace(PTRACE_PEEKTEXT, tid, (void *)(saved.rip - 2), NULL);
    // 0f 05 is `syscall`: the thread sits just after one, so re-running it is a system call.
    if (errno != 0 || (word & 0xffff) != 0x050f) {
        ptrace(PTRACE_DETACH, tid, NULL, NULL);
        return wh_chaos_no_syscall_site;
    }
    struct user_regs_struct injected = saved;
    injected.rip = saved.rip - 2;
    injected.rax = SYS_close;
    injected.rdi = (unsigned long long)fd;
    // No syscall to restart while the injected one runs; the saved registers bring the
    // interrupted call's restart back afterwards.
    injected.orig_rax = (unsigned long long)-1;
    wh_chaos_outcome outcome = wh_chaos_no_stop;
    if (ptrace(PTRACE_SETREGS, tid, NULL, &injected) == 0 && ptrace(PTRACE_SINGLESTEP, tid, NULL, NULL) == 0
        && wh_chaos_wait_stop(tid) == 0) {
        struct user_regs_struct after;
        if (ptrace(PTRACE_GETREGS, tid, NULL, &after) == 0) {
            *out_result = (long)after.rax;
            outcome = wh_chaos_closed;
        }
    } else {
        *out_errno = errno;
    }
    ptrace(PTRACE_SETREGS, tid, NULL, &saved);
    ptrace(PTRACE_DETACH, tid, NULL, NULL);
    return outcome;
#else
    (void)tid;
    (void)fd;
    return wh_chaos_unsupported;
#endif
}

// The sandbox's init: PID 1 of an extension's PID namespace.
//
// The host starts it in place of the extension (see wh_sandbox_config) with the extension's
// executable and arguments after its own name, fds 0-4 for the extension and fd 5 for its
// reports to the host. It starts the extension as its only child, reports the start, reaps
// whatever the namespace leaves to it, and when the extension ends reports its wait status
// exactly and exits, which makes the kernel kill everything else in the namespace.
//
// Why not exec the extension as PID 1 itself: PID 1 is immune to signals it has no handler for
// when they come from inside its namespace (abort(), raise(SIGSEGV), kill(getpid(), ...)), and
// from outside to all but SIGKILL and SIGSTOP (the host's SIGTERM); an extension would no longer
// crash or stop the way it does on iOS and everywhere else here.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wallet_spawn.h"
#include "SyscallFilter.h"

enum { report_fd = 5 };

/// SwiftPM links every executable with the Swift runtime's image registration (swiftrt.o), which
/// calls this at start-up. This program has no Swift in it: registering nothing keeps the whole
/// runtime out of the static link.
void swift_addNewDSOImage(const void *header);
void swift_addNewDSOImage(const void *header) { (void)header; }

static void report(int32_t kind, int32_t value) {
    int32_t record[2] = { kind, value };
    ssize_t written;
    do {
        written = write(report_fd, record, sizeof record);
    } while (written < 0 && errno == EINTR);
}

int main(int argc, char **argv) {
    if (argc < 2) return 127;
    // Not dumpable: a process of the same user (the extension) may not ptrace it, nor read its
    // memory through /proc. The extension's exec makes the extension itself dumpable again.
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        report(wh_init_report_setup_failed, errno);
        return 127;
    }
    // Where the kernel has Landlock's scopes (ABI 6): no abstract Unix socket made outside this
    // sandbox (the host's, another extension's, a session bus) can be connected to, and no process
    // outside it signalled, whatever network namespace the sandbox has. Older kernels: the
    // extension's own network namespace (--network none or proxy) is what separates the sockets.
    if (wh_landlock_scope_self() < 0) {
        report(wh_init_report_setup_failed, errno);
        return 127;
    }
    // Everything from here on, the extension and whatever it starts, runs under the filter.
    if (wallet_install_syscall_filter() != 0) {
        report(wh_init_report_setup_failed, errno);
        return 127;
    }
    // This IPC namespace's SysV segments, for the host to count (it takes the descriptor with
    // pidfd_getfd): the file lists the namespace it was opened in, whoever reads it. The
    // extension never has it (closed with the report pipe below).
    const char *views[2] = { "/proc/sysvipc/shm", "/proc/sysvipc/msg" };
    const int view_fds[2] = { WH_INIT_SHARED_MEMORY_VIEW_FD, WH_INIT_MESSAGE_QUEUES_VIEW_FD };
    for (int index = 0; index < 2; index++) {
        int view = open(views[index], O_RDONLY | O_CLOEXEC);
        if (view >= 0 && view != view_fds[index]) {
            (void)dup3(view, view_fds[index], O_CLOEXEC);
            (void)close(view);
        }
    }
    // Set between vfork and exec in the child, read once the child has exec'd or exited.
    volatile int exec_errno = 0;
    pid_t extension = vfork();
    if (extension == 0) {
        // The extension sees fds 0-4 only, and dies with its init whatever happens.
        (void)syscall(SYS_close_range, (unsigned)report_fd, ~0U, 0U);
        (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
        execv(argv[1], argv + 1);
        exec_errno = errno;
        _exit(127);
    }
    if (extension < 0) {
        report(wh_init_report_exec_failed, errno);
        return 127;
    }
    if (exec_errno != 0) {
        report(wh_init_report_exec_failed, exec_errno);
        return 127;
    }
    report(wh_init_report_started, extension);
    // Fds 0-4 are the extension's: the init keeps none of them, so that when the extension
    // closes fd 4 (or stdout, stderr) the host sees the pipe's end, as it does unsandboxed.
    // Holding fd 4 here, the host saw nothing, and a call waited out its deadline and the hang grace.
    (void)syscall(SYS_close_range, 0U, (unsigned)report_fd - 1, 0U);
    while (1) {
        int status = 0;
        pid_t reaped = waitpid(-1, &status, __WALL);
        if (reaped == extension) {
            report(wh_init_report_exited, status);
            return 0;
        }
        if (reaped < 0 && errno != EINTR) return 0;
    }
}

#define _GNU_SOURCE
#include "wallet_spawn.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The child runs between fork and _exit in a copy of a multi-threaded process: system calls only.

/// What the child exits with: 0 the filter acted, 1 it did not, 2 + errno (capped) the kernel refused it.
static int wh_filter_probe_child(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = { (unsigned short)(sizeof filter / sizeof filter[0]), filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return 2 + (errno < 200 ? errno : 200);
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) return 2 + (errno < 200 ? errno : 200);
    long parent = syscall(SYS_getppid);
    return parent == -1 && errno == EPERM ? 0 : 1;
}

int wh_syscall_filter_probe(int *error_number) {
    *error_number = 0;
    pid_t pid = fork();
    if (pid < 0) {
        *error_number = errno;
        return WH_FILTER_PROBE_FORK_FAILED;
    }
    if (pid == 0) _exit(wh_filter_probe_child());
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            *error_number = errno;
            return WH_FILTER_PROBE_WAIT_FAILED;
        }
    }
    if (!WIFEXITED(status)) {
        *error_number = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        return WH_FILTER_PROBE_CHILD_DIED;
    }
    int code = WEXITSTATUS(status);
    if (code == 0) return WH_FILTER_PROBE_ACTS;
    if (code == 1) return WH_FILTER_PROBE_DID_NOT_ACT;
    *error_number = code - 2;
    return WH_FILTER_PROBE_REFUSED;
}

#define _GNU_SOURCE
#include "wallet_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

typedef struct {
    int stage;
    int error;
} wh_child_failure;

/// Writes the failure to the errno pipe and exits. Async-signal-safe.
static void wh_child_fail(int report_fd, int stage) {
    wh_child_failure failure = { stage, errno };
    ssize_t ignored = write(report_fd, &failure, sizeof failure);
    (void)ignored;
    _exit(127);
}

static int wh_set_limit(int resource, long long value) {
    if (value < 0) return 0;
    struct rlimit limit = { (rlim_t)value, (rlim_t)value };
    return setrlimit(resource, &limit);
}

/// Runs in the child between fork and exec: async-signal-safe calls only.
static void wh_child(const wh_spawn_config *config, int report_fd, pid_t parent) {
    // Default dispositions, so the extension does not inherit the host's ignored SIGPIPE etc.
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        (void)sigaction(signal_number, &default_action, NULL);
    }

    if (config->new_process_group && setpgid(0, 0) != 0) wh_child_fail(report_fd, wh_spawn_stage_setpgid);

    if (config->death_signal) {
        if (prctl(PR_SET_PDEATHSIG, config->death_signal) != 0) wh_child_fail(report_fd, wh_spawn_stage_pdeathsig);
        // The parent may have died before prctl took effect: then nobody would ever signal us.
        if (getppid() != parent) {
            errno = ESRCH;
            wh_child_fail(report_fd, wh_spawn_stage_parent_gone);
        }
    }

    if (wh_set_limit(RLIMIT_DATA, config->rlimit_data) != 0 ||
        wh_set_limit(RLIMIT_STACK, config->rlimit_stack) != 0 ||
        wh_set_limit(RLIMIT_CORE, config->rlimit_core) != 0 ||
        wh_set_limit(RLIMIT_NOFILE, config->rlimit_nofile) != 0 ||
        wh_set_limit(RLIMIT_NPROC, config->rlimit_nproc) != 0) {
        wh_child_fail(report_fd, wh_spawn_stage_rlimit);
    }

    // Lift every source above the target range first, so that a source that happens to be
    // 0-4 is not overwritten by an earlier dup2.
    int sources[5] = { config->stdin_fd, config->stdout_fd, config->stderr_fd, config->rpc_in_fd, config->rpc_out_fd };
    int lifted[5];
    for (int index = 0; index < 5; index++) {
        lifted[index] = fcntl(sources[index], F_DUPFD_CLOEXEC, 10);
        if (lifted[index] < 0) wh_child_fail(report_fd, wh_spawn_stage_dup);
    }
    for (int index = 0; index < 5; index++) {
        // dup2 clears FD_CLOEXEC on the target, so these five survive exec.
        if (dup2(lifted[index], index) < 0) wh_child_fail(report_fd, wh_spawn_stage_dup);
    }
    // Everything else closes at exec. The report pipe is close-on-exec too, which is how the
    // parent learns that exec worked (it reads EOF).
    if (syscall(SYS_close_range, 5U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        long maximum = sysconf(_SC_OPEN_MAX);
        if (maximum < 0 || maximum > 65536) maximum = 65536;
        for (int fd = 5; fd < maximum; fd++) {
            if (fd != report_fd) (void)close(fd);
        }
    }

    if (config->working_directory != NULL && chdir(config->working_directory) != 0) {
        wh_child_fail(report_fd, wh_spawn_stage_chdir);
    }

    sigset_t empty;
    sigemptyset(&empty);
    (void)sigprocmask(SIG_SETMASK, &empty, NULL);

    execve(config->path, (char *const *)config->argv, (char *const *)config->envp);
    wh_child_fail(report_fd, wh_spawn_stage_exec);
}

int wh_spawn(const wh_spawn_config *config, pid_t *out_pid, int *out_errno, int *out_stage) {
    *out_pid = -1;
    *out_errno = 0;
    *out_stage = wh_spawn_stage_none;

    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        *out_errno = errno;
        *out_stage = wh_spawn_stage_pipe;
        return -1;
    }

    // Block every signal across fork so that no host signal handler runs in the child
    // before it resets dispositions.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);

    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        wh_child(config, report[1], parent);
        _exit(127);
    }
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);

    if (pid < 0) {
        close(report[0]);
        *out_errno = fork_errno;
        *out_stage = wh_spawn_stage_fork;
        return -1;
    }

    wh_child_failure failure;
    ssize_t got;
    do {
        got = read(report[0], &failure, sizeof failure);
    } while (got < 0 && errno == EINTR);
    close(report[0]);

    if (got == (ssize_t)sizeof failure) {
        int status;
        (void)wh_waitpid(pid, &status, 0);
        *out_errno = failure.error;
        *out_stage = failure.stage;
        return -1;
    }
    *out_pid = pid;
    return 0;
}

int wh_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

pid_t wh_waitpid(pid_t pid, int *status, int options) {
    pid_t result;
    do {
        result = waitpid(pid, status, options);
    } while (result < 0 && errno == EINTR);
    return result;
}

int wh_wifexited(int status) { return WIFEXITED(status); }
int wh_wexitstatus(int status) { return WEXITSTATUS(status); }
int wh_wifsignaled(int status) { return WIFSIGNALED(status); }
int wh_wtermsig(int status) { return WTERMSIG(status); }
int wh_wcoredump(int status) { return WCOREDUMP(status); }
int wh_wnohang(void) { return WNOHANG; }

int wh_set_pipe_size(int fd, int bytes) {
    return fcntl(fd, F_SETPIPE_SZ, bytes);
}

int wh_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

#define _GNU_SOURCE
#include "wallet_spawn.h"
#include "wallet_sandbox.h"
#include "wallet_network.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

/// The child's stack: it only makes system calls before exec, with a few path buffers for the sandbox.
enum { wallet_child_stack_bytes = 128 * 1024 };

/// A pipe whose write end only the host holds (close-on-exec): once the host is gone, a
/// sandboxed child sees the read end hang up. In a new PID namespace getppid() is 0, so this
/// replaces the parent check after PR_SET_PDEATHSIG.
static int wh_host_alive[2] = { -1, -1 };
static pthread_once_t wh_host_alive_once = PTHREAD_ONCE_INIT;

static void wh_make_host_alive_pipe(void) {
    if (pipe2(wh_host_alive, O_CLOEXEC) != 0) {
        wh_host_alive[0] = -1;
        wh_host_alive[1] = -1;
    }
}

/// What the parent and the child share. The child runs in the parent's memory (CLONE_VM) while
/// the spawning thread is suspended (CLONE_VFORK), so a failure is reported by writing here
/// before `_exit`: the spawning thread reads it once it resumes, after the exec or the exit.
typedef struct {
    const wh_spawn_config *config;
    pid_t parent;
    volatile int failure_stage;
    volatile int failure_errno;
} wallet_spawn_child_context;

/// Records where the child failed and exits. Async-signal-safe.
static _Noreturn void wh_child_fail(wallet_spawn_child_context *context, int stage) {
    context->failure_errno = errno;
    context->failure_stage = stage;
    _exit(127);
}

static int wh_set_limit(int resource, long long value) {
    if (value < 0) return 0;
    struct rlimit limit = { (rlim_t)value, (rlim_t)value };
    return setrlimit(resource, &limit);
}

/// Runs in the child between clone and exec, in the parent's memory on its own stack:
/// async-signal-safe system calls only, and no writes to memory but `context` and this stack.
/// Every signal is blocked on entry (the parent blocked them before clone).
static int wh_child(void *argument) {
    wallet_spawn_child_context *context = argument;
    const wh_spawn_config *config = context->config;

    // Into the extension's control groups first ("0" is the writer itself), so that nothing the
    // child does, sandbox set-up included, is counted anywhere else. The descriptors are the
    // groups' `tasks` files: this child is a single thread, and moving a thread skips the global
    // lock (and its RCU grace period) that moving a whole process through `cgroup.procs` takes.
    for (int index = 0; index < config->cgroup_procs_count; index++) {
        if (write(config->cgroup_procs_fds[index], "0", 1) != 1) wh_child_fail(context, wh_spawn_stage_cgroup);
    }

    // Default dispositions, so the extension does not inherit the host's ignored SIGPIPE, and
    // so that no host handler can run on the memory this child shares with the host. The
    // child has its own copy of the handler table (no CLONE_SIGHAND): the host's stays as it is.
    // The system call itself, because glibc's sigaction refuses its two internal signals (32,
    // 33), which an ignoring parent would otherwise pass on through exec. An all-zero kernel
    // sigaction is SIG_DFL with no flags and an empty mask whatever the architecture's layout.
    const unsigned long long default_action[4] = { 0, 0, 0, 0 };
    for (int signal_number = 1; signal_number < _NSIG; signal_number++) {
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        (void)syscall(SYS_rt_sigaction, signal_number, default_action, NULL, (size_t)(_NSIG - 1) / 8);
    }

    // A session of its own, whatever `new_process_group` says: no controlling terminal, so
    // /dev/tty fails (ENXIO) and the host's terminal is not the child's to push input into with
    // TIOCSTI or to signal. The new session's process group is the child's own, as setpgid made it.
    if (setsid() < 0) wh_child_fail(context, wh_spawn_stage_setpgid);

    // The network namespace before the sandbox's change of user: entering one takes CAP_SYS_ADMIN.
    if (config->sandbox != NULL && wh_network_enter(config->sandbox) != 0) wh_child_fail(context, wh_spawn_stage_network);

    if (config->sandbox != NULL) {
        int stage = wh_spawn_stage_none;
        if (wh_sandbox_enter(config->sandbox, &stage) != 0) wh_child_fail(context, stage);
    }

    // After the sandbox's change of user, which clears the death signal.
    if (config->death_signal) {
        if (prctl(PR_SET_PDEATHSIG, config->death_signal) != 0) wh_child_fail(context, wh_spawn_stage_pdeathsig);
        // The parent may have died before prctl took effect: then nobody would ever signal us.
        int parent_gone;
        if (config->sandbox != NULL) {
            if (wh_host_alive[0] < 0) {
                parent_gone = 0;
            } else {
                (void)close(wh_host_alive[1]);
                struct pollfd alive = { wh_host_alive[0], POLLIN, 0 };
                parent_gone = poll(&alive, 1, 0) > 0 && (alive.revents & (POLLHUP | POLLERR));
            }
        } else {
            parent_gone = getppid() != context->parent;
        }
        if (parent_gone) {
            errno = ESRCH;
            wh_child_fail(context, wh_spawn_stage_parent_gone);
        }
    }

    if (wh_set_limit(RLIMIT_DATA, config->rlimit_data) != 0 ||
        wh_set_limit(RLIMIT_STACK, config->rlimit_stack) != 0 ||
        wh_set_limit(RLIMIT_CORE, config->rlimit_core) != 0 ||
        wh_set_limit(RLIMIT_NPROC, config->rlimit_nproc) != 0 ||
        wh_set_limit(RLIMIT_FSIZE, config->rlimit_fsize) != 0) {
        wh_child_fail(context, wh_spawn_stage_rlimit);
    }
    if (config->nice_increment > 0) {
        errno = 0;
        int nice_value = getpriority(PRIO_PROCESS, 0);
        if ((nice_value == -1 && errno != 0) || setpriority(PRIO_PROCESS, 0, nice_value + config->nice_increment) != 0) {
            wh_child_fail(context, wh_spawn_stage_rlimit);
        }
    }

    // Lift every source above the target range first, so that a source that happens to be
    // 0-4 is not overwritten by an earlier dup2. The child has its own descriptor table
    // (no CLONE_FILES): none of this touches the host's.
    // A sandboxed child also gets the init's report pipe as fd 5 (the init closes it for the extension).
    int sources[6] = { config->stdin_fd, config->stdout_fd, config->stderr_fd, config->rpc_in_fd, config->rpc_out_fd,
                       config->sandbox != NULL ? config->sandbox->status_fd : -1 };
    int count = config->sandbox != NULL ? 6 : 5;
    int lifted[6];
    for (int index = 0; index < count; index++) {
        lifted[index] = fcntl(sources[index], F_DUPFD_CLOEXEC, 10);
        if (lifted[index] < 0) wh_child_fail(context, wh_spawn_stage_dup);
    }
    for (int index = 0; index < count; index++) {
        // dup2 clears FD_CLOEXEC on the target, so these survive exec.
        if (dup2(lifted[index], index) < 0) wh_child_fail(context, wh_spawn_stage_dup);
    }
    // Everything else closes at exec.
    if (syscall(SYS_close_range, (unsigned)count, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        long maximum = sysconf(_SC_OPEN_MAX);
        if (maximum < 0 || maximum > 65536) maximum = 65536;
        for (int fd = count; fd < maximum; fd++) (void)syscall(SYS_close, fd);
    }

    if (config->working_directory != NULL && chdir(config->working_directory) != 0) {
        wh_child_fail(context, wh_spawn_stage_chdir);
    }

    // RLIMIT_NOFILE only once the descriptors are in place: the child starts with a copy of the
    // host's table, and a host serving many extensions (the daemon) holds more descriptors than
    // the limit, so lifting a source above 10 under the limit fails with EMFILE.
    if (wh_set_limit(RLIMIT_NOFILE, config->rlimit_nofile) != 0) wh_child_fail(context, wh_spawn_stage_rlimit);

    sigset_t empty;
    sigemptyset(&empty);
    (void)sigprocmask(SIG_SETMASK, &empty, NULL);

    execve(config->path, (char *const *)config->argv, (char *const *)config->envp);
    wh_child_fail(context, wh_spawn_stage_exec);
}

int wh_spawn(const wh_spawn_config *config, pid_t *out_pid, int *out_pidfd, int *out_errno, int *out_stage) {
    *out_pid = -1;
    *out_pidfd = -1;
    *out_errno = 0;
    *out_stage = wh_spawn_stage_none;

    // CLONE_VM | CLONE_VFORK, as posix_spawn does: the child borrows the host's memory until
    // it execs, so nothing of a large, many-threaded host is copied (fork copied its page
    // tables and then took copy-on-write faults for every page either side touched).
    void *stack = mmap(NULL, wallet_child_stack_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        *out_errno = errno;
        *out_stage = wh_spawn_stage_fork;
        return -1;
    }
    wallet_spawn_child_context context = { config, getpid(), wh_spawn_stage_none, 0 };
    if (config->sandbox != NULL) (void)pthread_once(&wh_host_alive_once, wh_make_host_alive_pipe);

    // Block every signal across clone so that no host signal handler runs in the child
    // before it resets dispositions.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);

    // The pidfd comes from clone itself (CLONE_PIDFD, close-on-exec), so it always names
    // this child, never a recycled pid. Kernels before 5.2 refuse the flag: then no pidfd.
    int pidfd = -1;
    char *stack_top = (char *)stack + wallet_child_stack_bytes;
    int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
    if (config->sandbox != NULL) {
        // Its own IPC namespace: SysV shared memory, semaphores and message queues die with it.
        flags |= CLONE_NEWPID | CLONE_NEWIPC;
        // With a template the child enters a copy of it (setns, unshare) instead of copying the host's.
        if (config->sandbox->template_fd < 0) flags |= CLONE_NEWNS;
        if (config->sandbox->user_namespace) flags |= CLONE_NEWUSER;
        // A network namespace of its own, unless one was made ahead (entered with setns).
        if (config->sandbox->own_network && config->sandbox->network_namespace_fd < 0) flags |= CLONE_NEWNET;
    }
    pid_t pid = clone(wh_child, stack_top, flags | CLONE_PIDFD, &context, &pidfd);
    if (pid < 0 && errno == EINVAL) {
        pidfd = -1;
        pid = clone(wh_child, stack_top, flags, &context);
    }
    int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    munmap(stack, wallet_child_stack_bytes);

    if (pid < 0) {
        *out_errno = clone_errno;
        *out_stage = config->sandbox != NULL ? wh_spawn_stage_namespaces : wh_spawn_stage_fork;
        return -1;
    }
    // Here the child has either exec'd or exited: CLONE_VFORK suspended this thread until then.
    if (context.failure_stage != wh_spawn_stage_none) {
        int status;
        (void)wh_waitpid(pid, &status, 0);
        if (pidfd >= 0) close(pidfd);
        *out_errno = context.failure_errno;
        *out_stage = context.failure_stage;
        return -1;
    }
    *out_pid = pid;
    *out_pidfd = pidfd;
    return 0;
}

pid_t wh_first_child(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[32];
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return -1;
    text[count] = '\0';
    long value = 0;
    for (ssize_t index = 0; index < count && text[index] >= '0' && text[index] <= '9'; index++) {
        value = value * 10 + (text[index] - '0');
    }
    return value > 0 ? (pid_t)value : -1;
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

#ifndef WALLET_SPAWN_H
#define WALLET_SPAWN_H

#include <sys/types.h>

#pragma clang assume_nonnull begin

/// Where a failed spawn stopped, reported with the errno.
typedef enum {
    wh_spawn_stage_none = 0,
    /// No longer reported: the child reports failures through memory it shares with the parent.
    wh_spawn_stage_pipe = 1,
    /// clone, or the child's stack, failed.
    wh_spawn_stage_fork = 2,
    wh_spawn_stage_setpgid = 3,
    wh_spawn_stage_pdeathsig = 4,
    wh_spawn_stage_parent_gone = 5,
    wh_spawn_stage_rlimit = 6,
    wh_spawn_stage_dup = 7,
    wh_spawn_stage_chdir = 8,
    wh_spawn_stage_exec = 9,
    /// The sandbox's namespaces: clone with CLONE_NEWPID | CLONE_NEWNS (| CLONE_NEWUSER) refused.
    wh_spawn_stage_namespaces = 10,
    /// Writing the user namespace's uid/gid maps.
    wh_spawn_stage_user_map = 11,
    /// Building the sandbox's file system (mounts, pivot_root).
    wh_spawn_stage_mount = 12,
    /// Switching to the sandbox's user and group.
    wh_spawn_stage_credentials = 13,
    /// Moving the child into its control groups (writing "0" to a `cgroup.procs`).
    wh_spawn_stage_cgroup = 14,
} wh_spawn_stage;

/// One path the sandbox shows the process, at the same absolute path as outside.
typedef struct {
    const char *path;
    /// Non-zero: read-write; zero: read-only.
    int writable;
} wh_sandbox_path;

/// A sandbox: the child becomes PID 1 of a new PID namespace in a new mount namespace whose
/// root holds only `paths` (plus a fresh /proc, a minimal /dev and a private /tmp), and execs
/// `path` (the sandbox init, which starts the extension) there.
typedef struct {
    /// `paths`, sorted so that a parent comes before anything under it.
    const wh_sandbox_path *paths;
    int path_count;
    /// Non-zero: also a new user namespace mapping only `outer_uid`/`outer_gid` to themselves
    /// (for a host that is not root).
    int user_namespace;
    uid_t outer_uid;
    gid_t outer_gid;
    /// Switch to this user and group (no supplementary groups) once the mounts are made; -1 keeps them.
    long long run_as_uid;
    long long run_as_gid;
    /// The private /tmp's size in bytes.
    long long tmp_bytes;
    /// Becomes fd 5 in the child: where the init reports the extension's start and wait status.
    int status_fd;
} wh_sandbox_config;

/// What the child gets. File descriptors are the parent's; the child sees them as
/// 0 (stdin), 1 (stdout), 2 (stderr), 3 (rpc_in: the child reads) and 4 (rpc_out: the child writes).
/// Every other descriptor is closed in the child. Limits below zero are left as inherited.
typedef struct {
    const char *path;
    char *_Nullable const *_Nonnull argv;
    char *_Nullable const *_Nonnull envp;
    const char *_Nullable working_directory;
    int stdin_fd;
    int stdout_fd;
    int stderr_fd;
    int rpc_in_fd;
    int rpc_out_fd;
    long long rlimit_data;
    long long rlimit_stack;
    long long rlimit_core;
    long long rlimit_nofile;
    long long rlimit_nproc;
    /// Non-zero: the child leads a new process group (so the whole group can be signalled).
    int new_process_group;
    /// Non-zero: signal delivered to the child when the spawning thread dies (PR_SET_PDEATHSIG).
    int death_signal;
    /// Non-NULL: run in a sandbox (see wh_sandbox_config).
    const wh_sandbox_config *_Nullable sandbox;
    /// `cgroup.procs` files of the control groups the child belongs in, opened for writing by the
    /// host (close-on-exec). Right after clone, before anything else, the child writes "0" into
    /// each, which moves it there: everything it and its descendants do is counted from the start.
    const int *_Nullable cgroup_procs_fds;
    int cgroup_procs_count;
} wh_spawn_config;

/// Starts a child per `config` (clone with CLONE_VM | CLONE_VFORK, then exec). Between clone
/// and exec only async-signal-safe calls run. The calling thread is the child's parent for
/// `death_signal`: it must outlive the child. Returns 0 and sets `*out_pid` and `*out_pidfd`
/// (close-on-exec; -1 on kernels without CLONE_PIDFD) when exec succeeded; returns -1 and sets
/// `*out_errno` and `*out_stage` when anything failed (the failed child has been reaped already).
int wh_spawn(const wh_spawn_config *config, pid_t *out_pid, int *out_pidfd, int *out_errno, int *out_stage);

/// What the sandbox init writes on fd 5, 8 bytes at a time: a kind and a value.
typedef enum {
    /// The extension started; the value is its pid inside the namespace.
    wh_init_report_started = 1,
    /// The extension could not be executed; the value is the errno of execve.
    wh_init_report_exec_failed = 2,
    /// The extension ended; the value is its wait status, exactly as waitpid gave it.
    wh_init_report_exited = 3,
} wh_init_report_kind;

/// The first pid listed in `/proc/PID/task/PID/children` (the sandbox init's first child, the
/// extension), or -1.
pid_t wh_first_child(pid_t pid);

/// `pidfd_open(2)`: a descriptor that becomes readable when `pid` exits. -1 with errno on failure.
int wh_pidfd_open(pid_t pid);

/// `waitpid(2)` retrying EINTR. Returns the pid, 0 with WNOHANG when still running, -1 on error.
pid_t wh_waitpid(pid_t pid, int *status, int options);

int wh_wifexited(int status);
int wh_wexitstatus(int status);
int wh_wifsignaled(int status);
int wh_wtermsig(int status);
int wh_wcoredump(int status);

/// The WNOHANG flag for wh_waitpid.
int wh_wnohang(void);

/// `pipe2(fds, O_CLOEXEC)`: both ends close on exec. 0 or -1 with errno.
int wh_pipe_cloexec(int fds[_Nonnull 2]);

/// Sets a pipe's capacity (F_SETPIPE_SZ); returns the new size or -1.
int wh_set_pipe_size(int fd, int bytes);

#pragma clang assume_nonnull end

#endif

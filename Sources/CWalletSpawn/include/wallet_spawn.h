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
    /// setsid: the child's own session (and process group).
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
    /// A path the extension can write (its App Group container) holds a symbolic link, or is not a
    /// directory, where the host expects one: refused, never followed. The path is
    /// `paths[*failed_path_index]`.
    wh_spawn_stage_link = 14,
    /// Moving the child into its control groups (writing "0" to a `cgroup.procs`).
    wh_spawn_stage_cgroup = 15,
    /// The sandbox's network namespace: entering a pre-made one (setns), bringing `lo` up, or
    /// listening for the egress proxy inside it.
    wh_spawn_stage_network = 16,
} wh_spawn_stage;

/// One path the sandbox shows the process, at the same absolute path as outside.
typedef struct {
    const char *path;
    /// Non-zero: read-write; zero: read-only.
    int writable;
    /// Non-NULL for a path an extension can write (an App Group container): what is shown at `path`
    /// is `anchor`/`name`, where `anchor` is a directory the host resolved itself and `name` is
    /// reached from it without following any symbolic link (openat2 RESOLVE_BENEATH |
    /// RESOLVE_NO_SYMLINKS), then bound from the opened directory (open_tree, move_mount). A link on
    /// the way, or something else than a directory at the end, fails the launch
    /// (wh_spawn_stage_link). NULL: a system or bundle path, bound by name (a final link is copied
    /// as a link).
    const char *_Nullable anchor;
    const char *_Nullable name;
    /// Non-zero: bind the path alone, not what is mounted under it (`/sys` without the host's
    /// control groups, debug and security file systems): fewer mounts to show and to copy. Not
    /// in a user namespace, where the mounts under a path are locked to it.
    int alone;
} wh_sandbox_path;

/// A sandbox: the child becomes PID 1 of a new PID namespace in a new mount namespace whose
/// root holds only `paths` (plus a fresh /proc, a minimal /dev, a private /tmp and /dev/shm), and execs
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
    /// Where the child writes the index in `paths` of the path it refused (wh_spawn_stage_link) or
    /// failed to show; -1 otherwise. Memory of the parent's (the child shares it until exec).
    int *_Nullable failed_path_index;
    /// Non-negative: a template (wh_sandbox_make_template) of this very configuration. The child
    /// then enters a private copy of it instead of building its root, and shows anew only a
    /// private /tmp, a fresh /proc and the paths the template leaves out (those an extension can
    /// write, and those under /tmp). Root hosts only (`user_namespace` zero). -1: build the root.
    int template_fd;
    /// The private /tmp's most files and directories (tmpfs `nr_inodes`); 0: the kernel's default.
    long long tmp_inodes;
    /// The private /dev/shm (a tmpfs of its own at each launch, gone with the sandbox): its size
    /// in bytes and its most files (`nr_inodes`; 0: the kernel's default).
    long long shm_bytes;
    long long shm_inodes;
    /// Non-zero: a network namespace of its own holding only `lo` (up), so that no abstract Unix
    /// socket, loopback service or interface of the host's (or another extension's) is reachable:
    /// `network_namespace_fd` when non-negative (a pre-made namespace, wh_network_namespace_make,
    /// entered with setns), otherwise a new one made by clone (CLONE_NEWNET). Zero: the host's.
    int own_network;
    int network_namespace_fd;
    /// Non-negative (with `own_network`): one end of a Unix datagram socket pair. The child, in
    /// its network namespace, listens on 127.0.0.1:`proxy_port` and sends the listening socket
    /// over it (SCM_RIGHTS): the host's egress proxy accepts there. -1: nothing listens.
    int proxy_channel_fd;
    int proxy_port;
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
    /// `RLIMIT_FSIZE`: the largest file the child may write (a container's quota bounds one file at least).
    long long rlimit_fsize;
    /// Every child leads a new session and process group (setsid: no controlling terminal, and the
    /// whole group can be signalled), whatever this says; kept for the callers that set it.
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
    /// Above zero: added to the child's nice value before exec (where no `cpu` control group shares
    /// the CPU out, an extension yields to the host). A process without CAP_SYS_NICE cannot undo it.
    int nice_increment;
} wh_spawn_config;

/// Starts a child per `config` (clone with CLONE_VM | CLONE_VFORK, then exec). Between clone
/// and exec only async-signal-safe calls run. The calling thread is the child's parent for
/// `death_signal`: it must outlive the child. Returns 0 and sets `*out_pid` and `*out_pidfd`
/// (close-on-exec; -1 on kernels without CLONE_PIDFD) when exec succeeded; returns -1 and sets
/// `*out_errno` and `*out_stage` when anything failed (the failed child has been reaped already).
int wh_spawn(const wh_spawn_config *config, pid_t *out_pid, int *out_pidfd, int *out_errno, int *out_stage);

/// Builds the sandbox's root for `config` once, in a mount namespace of its own kept by
/// `*out_fd` (close-on-exec; closing it frees the namespace), for launches to copy
/// (`template_fd`). Returns 0, or -1 with `*out_errno` and `*out_stage` (and
/// `config->failed_path_index`) saying what failed.
int wh_sandbox_make_template(const wh_sandbox_config *config, int *out_fd, int *out_errno, int *out_stage);

/// Whether the kernel lets this process make the sandbox's namespaces: clones a child into new
/// PID, mount and IPC namespaces (and a user namespace when `user_namespace` is non-zero), which
/// makes its mounts private and mounts a tmpfs, then exits. Returns 0; the errno of clone when the
/// kernel refused the namespaces; or minus the child's failed step (1-3: the user namespace's
/// maps, 4: private mounts, 5: a tmpfs mount). Costs about one spawn.
int wh_sandbox_probe(int user_namespace);

/// Whether the kernel lets a process install a seccomp filter that answers a system call with an
/// errno, as the sandbox's init does (SyscallFilter.c) for itself and the extension: forks a
/// child that sets no_new_privs, installs a filter failing getppid with EPERM and checks that it
/// does. Returns one of the WH_FILTER_PROBE_ outcomes; `*error_number` is then the errno of the
/// step that failed (prctl in the child, fork, waitpid), the signal that ended the child, or 0.
int wh_syscall_filter_probe(int *error_number);

/// The filter was installed and acted.
#define WH_FILTER_PROBE_ACTS 0
/// The filter was installed but getppid was not refused.
#define WH_FILTER_PROBE_DID_NOT_ACT 1
/// The kernel refused no_new_privs or the filter (the child's prctl errno).
#define WH_FILTER_PROBE_REFUSED 2
/// No child could be forked to ask (fork's errno): nothing is known of seccomp.
#define WH_FILTER_PROBE_FORK_FAILED 3
/// The child could not be waited for (waitpid's errno): nothing is known of seccomp.
#define WH_FILTER_PROBE_WAIT_FAILED 4
/// The child ended without exiting (the signal, or 0).
#define WH_FILTER_PROBE_CHILD_DIED 5

/// `O_PATH` (Glibc's module leaves it out without _GNU_SOURCE): a descriptor that names a file
/// without opening it, for the *at calls. The same value on every Linux architecture we build for.
#define WH_O_PATH 010000000

/// `openat2(2)` of `path` beneath `directory_fd` (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
/// RESOLVE_NO_MAGICLINKS): a symbolic link anywhere on the way fails with ELOOP, an escape with
/// EXDEV. `flags` and `mode` as for openat. Returns the descriptor, or -1 with errno (ENOSYS
/// before Linux 5.6).
int wh_open_beneath(int directory_fd, const char *path, int flags, unsigned int mode);

/// What the sandbox init writes on fd 5, 8 bytes at a time: a kind and a value.
typedef enum {
    /// The extension started; the value is its pid inside the namespace.
    wh_init_report_started = 1,
    /// The extension could not be executed; the value is the errno of execve.
    wh_init_report_exec_failed = 2,
    /// The extension ended; the value is its wait status, exactly as waitpid gave it.
    wh_init_report_exited = 3,
    /// The init could not set the sandbox's last rules (non-dumpable, the system call filter);
    /// the value is the errno. The extension was not started.
    wh_init_report_setup_failed = 4,
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

/// Registers an event of a cgroup v1 memory group (`cgroup.event_control`, opened for writing
/// as `event_control_fd`): `target_fd` is `memory.oom_control` (the OOM killer acted) or
/// `memory.usage_in_bytes` with a threshold in bytes as `arguments` (usage crossed it, either
/// way). The kernel signals `eventfd`; pass -1 to make a new one (non-blocking, close-on-exec).
/// Returns the eventfd, or -1 with errno (a new eventfd is closed again).
int wh_cgroup_event(int event_control_fd, int target_fd, const char *_Nullable arguments, int eventfd);

/// Names the calling thread for the kernel (`PR_SET_NAME`: 15 characters are kept).
void wh_set_thread_name(const char *name);

/// Starts a detached thread running `body(context)` with a stack of `stack_bytes`. Returns 0, or
/// pthread_create's error (EAGAIN: the process or user is at its limit of threads), in which case
/// `body` never runs and `context` is the caller's again. (Foundation's Thread cannot say so.)
int wh_thread_start_detached(void *_Nullable (*_Nonnull body)(void *_Nullable), void *_Nullable context, size_t stack_bytes);

/// Reads an eventfd's counter, resetting it (non-blocking: 0 when nothing was signalled).
unsigned long long wh_eventfd_drain(int eventfd);

/// `pidfd_getfd(2)`: a duplicate (close-on-exec) of descriptor `target_fd` of the process `pidfd`
/// refers to, the same open file. The caller must be allowed to ptrace it. -1 with errno (ENOSYS
/// before Linux 5.6).
int wh_pidfd_getfd(int pidfd, int target_fd);

/// The descriptor on which the sandbox's init keeps `/proc/sysvipc/shm` open, opened inside the
/// sandbox's IPC namespace: read by anyone, it lists that namespace's SysV segments. The host
/// takes it with wh_pidfd_getfd to count what an extension holds there; the extension never has it.
#define WH_INIT_SHARED_MEMORY_VIEW_FD 6
/// The same for `/proc/sysvipc/msg`: the bytes queued in the namespace's SysV message queues
/// (16 KB a queue, 32,000 queues: 512 MB of kernel memory per namespace).
#define WH_INIT_MESSAGE_QUEUES_VIEW_FD 7

/// Makes a network namespace holding only `lo`, brought up: the calling thread enters a new one
/// (unshare), opens it, brings `lo` up and returns to the namespace it was in. Run it on a thread
/// of its own (it moves that thread for a moment). Returns the namespace's descriptor
/// (close-on-exec), or -1 with errno; -2 when the thread could not return to its namespace (the
/// thread must not be used for anything else).
int wh_network_namespace_make(void);

/// Puts the calling thread in SCHED_IDLE: it runs only on a processor nothing else wants (the
/// pool of network namespaces refills so, never competing with the launch that emptied it).
/// 0 or -1 with errno.
int wh_thread_idle_priority(void);

/// Receives one descriptor sent with SCM_RIGHTS on `channel` (non-blocking: -1 with EAGAIN when
/// none waits). The descriptor is close-on-exec.
int wh_receive_descriptor(int channel);

/// Whether this machine can give an extension its own network namespace with the egress proxy's
/// listener in it: a child enters a new network namespace (in a new user namespace when
/// `user_namespace`), brings `lo` up and listens on 127.0.0.1:`port`. Returns 0, the errno of
/// clone, or minus the failed step (1-3: the user namespace's maps, 4: `lo`, 5: the listener).
int wh_network_probe(int user_namespace, int port);

/// The Landlock ABI version the kernel offers (landlock_create_ruleset with
/// LANDLOCK_CREATE_RULESET_VERSION), or -1 with errno (ENOSYS, EOPNOTSUPP: none). ABI 6 added
/// scopes: abstract Unix sockets and signals.
int wh_landlock_abi(void);

/// Confines the calling process (and what it starts) to its own Landlock domain's abstract Unix
/// sockets and signals (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL), where the
/// kernel's Landlock ABI is 6 or later; needs no_new_privs. Returns 1 when applied, 0 when the
/// kernel has no scopes, -1 with errno when it has them but refused.
int wh_landlock_scope_self(void);

#pragma clang assume_nonnull end

#endif

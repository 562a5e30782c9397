#ifndef WALLET_USER_NAMESPACE_H
#define WALLET_USER_NAMESPACE_H

// Helpers shared by the sandbox and the network namespace: writing a file in one call, and the
// kernel probes' "clone a child, wait, report its step". Everything a child calls here between
// clone and exec is a system call or plain memory work (no allocation, no locks), so it is safe
// after a CLONE_VM clone.

/// Writes `text` to `path` with one write(2); 0 when all of it was written, else -1 with errno set.
int wh_write_file(const char *path, const char *text);

/// Writes the decimal digits of `value` into `buffer` (at least 24 bytes); returns the end (its NUL).
char *wh_decimal(char *buffer, unsigned long long value);

/// Maps `uid` and `gid` to themselves in the caller's new user namespace, after setgroups "deny"
/// (only that lets a process without CAP_SETGID outside write gid_map).
/// Returns 0, or the step that failed: 1 setgroups, 2 uid_map, 3 gid_map (errno set).
int wh_map_own_identity(unsigned long long uid, unsigned long long gid);

/// Runs `child(argument)` in a clone with `flags` on a stack of its own and waits for it.
/// Returns 0 when the child exited 0, the errno when clone or the stack failed, minus the child's
/// exit status when it exited non-zero (a probe child exits with the number of its failed step),
/// and -100 when it was killed.
int wh_run_probe_child(int (*child)(void *), void *argument, int flags);

/// Like wh_run_probe_child, but `child` returns its step (0 or the failed step's number) instead
/// of exiting, and runs in this process's memory (CLONE_VM | CLONE_VFORK are added to `flags`):
/// its answer is read as soon as it exits, without waiting for the kernel to tear down its
/// namespaces (a mount namespace's teardown waits for an RCU grace period). A detached thread
/// reaps it. Returns as wh_run_probe_child does.
int wh_run_probe_child_unwaited(int (*child)(void *), void *argument, int flags);

#endif

// The seccomp filter the sandbox's init installs for itself and everything the extension starts.
#ifndef WALLET_SANDBOX_SYSCALL_FILTER_H
#define WALLET_SANDBOX_SYSCALL_FILTER_H

/// Installs the filter (the caller has set no_new_privs). What it refuses, and why:
/// - new namespaces (unshare, setns, clone with a CLONE_NEW* flag): iOS extensions have none, and
///   a nested user namespace would give the extension mounts (a tmpfs outside its memory limit);
///   clone3, whose flags a filter cannot read, answers ENOSYS so that glibc falls back to clone;
/// - ptrace: the extension could stop or steer its init (and so the host's view of it);
/// - the kernel keyrings (keyctl, add_key, request_key): shared by every process of one user,
///   so by every sandboxed extension of a root host;
/// - mounts of any kind (defence in depth: without a user namespace it has no right to them);
/// - ioctl TIOCSTI and TIOCLINUX (EPERM): pushing input into a terminal, were one ever reachable (the
///   extension has its own session, no controlling terminal and no /dev/tty);
/// - system calls of another ABI (i386 or x32 on x86_64), which would pass around the rules above.
/// Returns 0, or -1 with errno.
int wallet_install_syscall_filter(void);

#endif

#define _GNU_SOURCE
#include "SyscallFilter.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define WALLET_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define WALLET_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the sandbox's system call filter knows x86_64 and aarch64 only"
#endif

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef TIOCSTI
#define TIOCSTI 0x5412
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/// Every CLONE_NEW* flag clone() can carry (CLONE_NEWTIME shares its bit with the exit signal there).
#define WALLET_CLONE_NAMESPACES (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | \
                                 CLONE_NEWPID | CLONE_NEWNET)

#define WALLET_ARGUMENT0_LOW offsetof(struct seccomp_data, args[0])
/// The low 32 bits of the second argument (little-endian): all of an ioctl's request, an unsigned int.
#define WALLET_ARGUMENT1_LOW offsetof(struct seccomp_data, args[1])
#define WALLET_DENY(code) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((code) & SECCOMP_RET_DATA))
#define WALLET_ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
/// If the system call number is `nr`, go on to the next instruction, else skip `skip` of them.
#define WALLET_IF_CALL(nr, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, (skip))

int wallet_install_syscall_filter(void) {
    struct sock_filter filter[] = {
        // Another ABI's calls: end the process (nothing legitimate here makes them).
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, WALLET_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        // x32 numbers carry bit 30.
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
        // clone with a namespace flag.
        WALLET_IF_CALL(SYS_clone, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, WALLET_ARGUMENT0_LOW),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, WALLET_CLONE_NAMESPACES, 0, 1),
        WALLET_DENY(EPERM),
        WALLET_ALLOW,
        // unshare with a namespace flag (unshare(CLONE_FILES) and the like stay).
        WALLET_IF_CALL(SYS_unshare, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, WALLET_ARGUMENT0_LOW),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, WALLET_CLONE_NAMESPACES | CLONE_NEWTIME, 0, 1),
        WALLET_DENY(EPERM),
        WALLET_ALLOW,
        // clone3's flags are behind a pointer: ENOSYS, and glibc uses clone instead.
        WALLET_IF_CALL(SYS_clone3, 1),
        WALLET_DENY(ENOSYS),
        // ioctl TIOCSTI (push input into a terminal) and TIOCLINUX (the console's selection, which
        // can paste): a terminal descriptor the extension got hold of somehow is not one to type into.
        WALLET_IF_CALL(SYS_ioctl, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, WALLET_ARGUMENT1_LOW),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 0, 1),
        WALLET_DENY(EPERM),
        WALLET_ALLOW,
        WALLET_IF_CALL(SYS_setns, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_ptrace, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_keyctl, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_add_key, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_request_key, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_mount, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_umount2, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(SYS_pivot_root, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(428 /* open_tree */, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(429 /* move_mount */, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(430 /* fsopen */, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(431 /* fsconfig */, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(432 /* fsmount */, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(433 /* fspick */, 1), WALLET_DENY(EPERM),
        WALLET_IF_CALL(442 /* mount_setattr */, 1), WALLET_DENY(EPERM),
        WALLET_ALLOW,
    };
    struct sock_fprog program = { (unsigned short)(sizeof filter / sizeof filter[0]), filter };
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
}

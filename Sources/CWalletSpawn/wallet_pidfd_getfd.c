#define _GNU_SOURCE
#include "wallet_spawn.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

int wh_pidfd_getfd(int pidfd, int target_fd) {
    // The new descriptor is close-on-exec (the kernel sets O_CLOEXEC on it).
    return (int)syscall(SYS_pidfd_getfd, pidfd, target_fd, 0);
}

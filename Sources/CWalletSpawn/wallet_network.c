#define _GNU_SOURCE
#include "wallet_network.h"
#include "wallet_user_namespace.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// An extension's network: a namespace of its own holding only `lo`, and, for the egress proxy, a
// socket listening on 127.0.0.1 there whose connections the host accepts (the host's proxy then
// connects out from the host's own namespace). The parts that run in a spawned child between clone
// and exec make system calls only.

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#define WH_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define WH_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define WH_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

/// `struct landlock_ruleset_attr` as of ABI 6 (older C libraries' headers lack `scoped`).
struct wh_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int wh_loopback_up(void) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct ifreq request;
    memset(&request, 0, sizeof request);
    memcpy(request.ifr_name, "lo", 3);
    int result = ioctl(fd, SIOCGIFFLAGS, &request);
    if (result == 0 && !(request.ifr_flags & IFF_UP)) {
        request.ifr_flags |= IFF_UP;
        result = ioctl(fd, SIOCSIFFLAGS, &request);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/// A TCP socket listening on 127.0.0.1:`port` in the calling thread's network namespace.
static int wh_listen_loopback(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 64) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// Sends `fd` on `channel` (SCM_RIGHTS).
static int wh_send_descriptor(int channel, int fd) {
    char byte = 'L';
    struct iovec vector = { &byte, 1 };
    union {
        struct cmsghdr header;
        char room[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.room;
    message.msg_controllen = sizeof control.room;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(channel, &message, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int wh_receive_descriptor(int channel) {
    char byte;
    struct iovec vector = { &byte, 1 };
    union {
        struct cmsghdr header;
        char room[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.room;
    message.msg_controllen = sizeof control.room;
    if (recvmsg(channel, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1) return -1;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    if (header == NULL || header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) {
        errno = EPROTO;
        return -1;
    }
    int fd;
    memcpy(&fd, CMSG_DATA(header), sizeof(int));
    return fd;
}

int wh_network_enter(const wh_sandbox_config *config) {
    if (!config->own_network) return 0;
    if (config->network_namespace_fd >= 0) {
        // Made ahead with `lo` up already.
        if (setns(config->network_namespace_fd, CLONE_NEWNET) != 0) return -1;
    } else if (wh_loopback_up() != 0) {
        return -1;
    }
    if (config->proxy_channel_fd < 0) return 0;
    int listener = wh_listen_loopback(config->proxy_port);
    if (listener < 0) return -1;
    int result = wh_send_descriptor(config->proxy_channel_fd, listener);
    int saved = errno;
    close(listener);
    errno = saved;
    return result;
}

int wh_network_namespace_make(void) {
    int original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (original < 0) return -1;
    if (unshare(CLONE_NEWNET) != 0) {
        int saved = errno;
        close(original);
        errno = saved;
        return -1;
    }
    int made = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    int saved = errno;
    if (made >= 0 && wh_loopback_up() != 0) {
        saved = errno;
        close(made);
        made = -1;
    }
    if (setns(original, CLONE_NEWNET) != 0) {
        saved = errno;
        if (made >= 0) close(made);
        close(original);
        errno = saved;
        return -2;
    }
    close(original);
    errno = saved;
    return made;
}

typedef struct {
    int user_namespace;
    uid_t uid;
    gid_t gid;
    int port;
} wh_network_probe_context;

static int wh_network_probe_child(void *argument) {
    const wh_network_probe_context *context = argument;
    if (context->user_namespace) {
        int failed_step = wh_map_own_identity(context->uid, context->gid);
        if (failed_step != 0) _exit(failed_step);
    }
    if (wh_loopback_up() != 0) _exit(4);
    if (wh_listen_loopback(context->port) < 0) _exit(5);
    _exit(0);
}

int wh_network_probe(int user_namespace, int port) {
    wh_network_probe_context context = { user_namespace, geteuid(), getegid(), port };
    int flags = CLONE_NEWNET | SIGCHLD;
    if (user_namespace) flags |= CLONE_NEWUSER;
    // No CLONE_VM: the child's socket calls need not be async-signal-safe.
    return wh_run_probe_child(wh_network_probe_child, &context, flags);
}

int wh_landlock_abi(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, WH_LANDLOCK_CREATE_RULESET_VERSION);
}

int wh_landlock_scope_self(void) {
    int abi = wh_landlock_abi();
    if (abi < 6) return 0;
    struct wh_landlock_ruleset_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.scoped = WH_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | WH_LANDLOCK_SCOPE_SIGNAL;
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0U);
    if (ruleset < 0) return -1;
    long result = syscall(SYS_landlock_restrict_self, ruleset, 0U);
    int saved = errno;
    close(ruleset);
    errno = saved;
    return result == 0 ? 1 : -1;
}

int wh_thread_idle_priority(void) {
    struct sched_param parameters;
    memset(&parameters, 0, sizeof parameters);
    return sched_setscheduler(0, SCHED_IDLE, &parameters);
}

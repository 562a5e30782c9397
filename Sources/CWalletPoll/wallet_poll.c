#define _GNU_SOURCE
#include "wallet_poll.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

int wh_poll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

static int control(int poll, int operation, int fd, uint32_t events) {
    struct epoll_event event = {0};
    event.events = events;
    event.data.fd = fd;
    return epoll_ctl(poll, operation, fd, &event);
}

int wh_poll_add(int poll, int fd, uint32_t events) {
    return control(poll, EPOLL_CTL_ADD, fd, events);
}

int wh_poll_modify(int poll, int fd, uint32_t events) {
    return control(poll, EPOLL_CTL_MOD, fd, events);
}

int wh_poll_remove(int poll, int fd) {
    return control(poll, EPOLL_CTL_DEL, fd, 0);
}

int wh_poll_wait(int poll, int *fds, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(poll, ready, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        fds[index] = ready[index].data.fd;
        events[index] = ready[index].events;
    }
    return count;
}

static int control_token(int poll, int operation, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {0};
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(poll, operation, fd, &event);
}

int wh_loop_add(int poll, int fd, uint32_t events, uint64_t token) {
    return control_token(poll, EPOLL_CTL_ADD, fd, events, token);
}

int wh_loop_modify(int poll, int fd, uint32_t events, uint64_t token) {
    return control_token(poll, EPOLL_CTL_MOD, fd, events, token);
}

/* epoll_pwait2 (Linux 5.11, glibc 2.35) takes its timeout in nanoseconds: a loop timer 300 us
   away is slept for 300 us, not for a millisecond rounded up. Without it (an older C library at
   build time, or ENOSYS from an older kernel, remembered) epoll_wait, with the timeout rounded
   up to whole milliseconds: a timer never fires early, at worst up to a millisecond late. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define WH_HAVE_EPOLL_PWAIT2 1
#endif

static int precise_wait_missing;

int wh_loop_precise_wait(void) {
#ifdef WH_HAVE_EPOLL_PWAIT2
    if (__atomic_load_n(&precise_wait_missing, __ATOMIC_RELAXED)) return 0;
    struct timespec zero = {0, 0};
    struct epoll_event ready;
    /* On no epoll set: EBADF where the system call exists, ENOSYS where it does not. */
    if (epoll_pwait2(-1, &ready, 1, &zero, NULL) < 0 && errno == ENOSYS) {
        __atomic_store_n(&precise_wait_missing, 1, __ATOMIC_RELAXED);
        return 0;
    }
    return 1;
#else
    return 0;
#endif
}

int wh_loop_wait(int poll, uint64_t *tokens, uint32_t *events, int capacity, long long timeout_ns) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = -1;
    int waited = 0;
#ifdef WH_HAVE_EPOLL_PWAIT2
    if (timeout_ns > 0 && !__atomic_load_n(&precise_wait_missing, __ATOMIC_RELAXED)) {
        struct timespec timeout = {(time_t)(timeout_ns / 1000000000LL), (long)(timeout_ns % 1000000000LL)};
        count = epoll_pwait2(poll, ready, capacity, &timeout, NULL);
        waited = !(count < 0 && errno == ENOSYS);
        if (!waited) __atomic_store_n(&precise_wait_missing, 1, __ATOMIC_RELAXED);
    }
#endif
    if (!waited) {
        int timeout_ms;
        if (timeout_ns < 0) timeout_ms = -1;
        else if (timeout_ns == 0) timeout_ms = 0;
        else {
            long long rounded = (timeout_ns + 999999LL) / 1000000LL;
            timeout_ms = rounded > 60000LL ? 60000 : (int)rounded;
        }
        count = epoll_wait(poll, ready, capacity, timeout_ms);
    }
    for (int index = 0; index < count; index++) {
        tokens[index] = ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}

int wh_poll_accept(int listener) {
    int fd;
    do {
        fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

int wh_poll_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int wh_poll_wakeup_create(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

void wh_poll_wakeup_signal(int wakeup) {
    uint64_t one = 1;
    // EAGAIN only when the counter is near 2^64: the loop is awake already.
    while (write(wakeup, &one, sizeof one) < 0 && errno == EINTR) {}
}

void wh_poll_wakeup_drain(int wakeup) {
    uint64_t count;
    while (read(wakeup, &count, sizeof count) < 0 && errno == EINTR) {}
}

// What the host's I/O reactor asks of the kernel for each extension besides spawning: cgroup v1 memory
// events (the kernel signals an eventfd when a group's usage crosses a threshold or its OOM
// killer acts, so the host need not read the group's files to find out), a timer that a caller
// can bring forward without waking the thread, and the thread's name.
#include "wallet_spawn.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

int wh_cgroup_event(int event_control_fd, int target_fd, const char *arguments, int eventfd_in) {
    int fd = eventfd_in >= 0 ? eventfd_in : eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (fd < 0) return -1;
    char line[96];
    int length = arguments ? snprintf(line, sizeof line, "%d %d %s", fd, target_fd, arguments)
                           : snprintf(line, sizeof line, "%d %d", fd, target_fd);
    ssize_t written;
    do {
        written = write(event_control_fd, line, (size_t)length);
    } while (written < 0 && errno == EINTR);
    if (written != length) {
        int saved = errno;
        if (eventfd_in < 0) close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

unsigned long long wh_eventfd_drain(int fd) {
    uint64_t count = 0;
    ssize_t got;
    do {
        got = read(fd, &count, sizeof count);
    } while (got < 0 && errno == EINTR);
    return got == (ssize_t)sizeof count ? count : 0;
}

void wh_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

int wh_thread_start_detached(void *(*body)(void *), void *context, size_t stack_bytes) {
    pthread_attr_t attributes;
    int failure = pthread_attr_init(&attributes);
    if (failure) return failure;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (stack_bytes > 0) pthread_attr_setstacksize(&attributes, stack_bytes);
    pthread_t thread;
    failure = pthread_create(&thread, &attributes, body, context);
    pthread_attr_destroy(&attributes);
    return failure;
}

#define _GNU_SOURCE
#include "wallet_user_namespace.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int wh_write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t length = (ssize_t)strlen(text);
    ssize_t written = write(fd, text, (size_t)length);
    int saved = errno;
    close(fd);
    errno = saved;
    return written == length ? 0 : -1;
}

char *wh_decimal(char *buffer, unsigned long long value) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (count > 0) *buffer++ = digits[--count];
    *buffer = '\0';
    return buffer;
}

/// Maps `id` to itself in the new user namespace: "ID ID 1".
static int wh_write_map(const char *path, unsigned long long id) {
    char line[64];
    char *end = wh_decimal(line, id);
    *end++ = ' ';
    end = wh_decimal(end, id);
    memcpy(end, " 1\n", 4);
    return wh_write_file(path, line);
}

int wh_map_own_identity(unsigned long long uid, unsigned long long gid) {
    if (wh_write_file("/proc/self/setgroups", "deny\n") != 0 && errno != ENOENT) return 1;
    if (wh_write_map("/proc/self/uid_map", uid) != 0) return 2;
    if (wh_write_map("/proc/self/gid_map", gid) != 0) return 3;
    return 0;
}

int wh_run_probe_child(int (*child)(void *), void *argument, int flags) {
    enum { stack_bytes = 64 * 1024 };
    void *stack = mmap(NULL, stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return errno;
    pid_t pid = clone(child, (char *)stack + stack_bytes, flags, argument);
    int result = pid < 0 ? errno : 0;
    if (pid > 0) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        if (!WIFEXITED(status)) result = -100;
        else if (WEXITSTATUS(status) != 0) result = -WEXITSTATUS(status);
    }
    munmap(stack, stack_bytes);
    return result;
}

typedef struct {
    int (*child)(void *);
    void *argument;
    /// What the child answered; stays -100 when it died before answering.
    volatile int answer;
} wh_unwaited_probe;

static int wh_unwaited_probe_child(void *argument) {
    wh_unwaited_probe *probe = argument;
    int step = probe->child(probe->argument);
    probe->answer = step;
    _exit(step);
}

static void *wh_reap(void *argument) {
    pid_t pid = (pid_t)(intptr_t)argument;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return NULL;
}

int wh_run_probe_child_unwaited(int (*child)(void *), void *argument, int flags) {
    enum { stack_bytes = 64 * 1024 };
    void *stack = mmap(NULL, stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return errno;
    wh_unwaited_probe probe = { child, argument, -100 };
    // No host signal handler may run on the memory the child shares with the host.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    // CLONE_VFORK: this thread resumes once the child has exited (or exec'd, which it does not).
    pid_t pid = clone(wh_unwaited_probe_child, (char *)stack + stack_bytes, flags | CLONE_VM | CLONE_VFORK, &probe);
    int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    munmap(stack, stack_bytes);
    if (pid < 0) return clone_errno;
    int answer = probe.answer;
    pthread_t reaper;
    pthread_attr_t attributes;
    int detached = pthread_attr_init(&attributes) == 0;
    if (detached) {
        (void)pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        (void)pthread_attr_setstacksize(&attributes, 64 * 1024);
        detached = pthread_create(&reaper, &attributes, wh_reap, (void *)(intptr_t)pid) == 0;
        pthread_attr_destroy(&attributes);
    }
    if (!detached) (void)wh_reap((void *)(intptr_t)pid);
    if (answer == -100) return -100;
    return answer == 0 ? 0 : -answer;
}

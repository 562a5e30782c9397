#define _GNU_SOURCE
#include "wallet_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// A sandbox's file system costs a launch most of its time (a root built from nothing: two
// pivots, a bind per system path, /dev, a detach). For a root host the same root serves every
// launch of one extension: it is built once into a mount namespace kept by a descriptor (the
// template), and each launch enters a private copy of it and adds only what must be new: a
// private /tmp and /dev/shm, a fresh /proc, and the late paths (wh_sandbox_is_late) taken then.

typedef struct {
    const wh_sandbox_config *config;
    volatile int fd;
    volatile int stage;
    volatile int error;
} wh_template_context;

/// The template's builder: a child in a new mount namespace that shares the host's descriptor
/// table (CLONE_FILES), so that the namespace's descriptor outlives it.
static int wh_template_child(void *argument) {
    wh_template_context *context = argument;
    int fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        context->error = errno;
        context->stage = wh_spawn_stage_mount;
        _exit(1);
    }
    int stage = wh_spawn_stage_none;
    if (wh_sandbox_build_root(context->config, 1, &stage) != 0) {
        context->error = errno;
        context->stage = stage;
        close(fd);
        _exit(1);
    }
    context->fd = fd;
    _exit(0);
}

int wh_sandbox_make_template(const wh_sandbox_config *config, int *out_fd, int *out_errno, int *out_stage) {
    enum { stack_bytes = 128 * 1024 };
    *out_fd = -1;
    *out_errno = 0;
    *out_stage = wh_spawn_stage_none;
    void *stack = mmap(NULL, stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        *out_errno = errno;
        *out_stage = wh_spawn_stage_fork;
        return -1;
    }
    wh_template_context context = { config, -1, wh_spawn_stage_none, 0 };
    // No host signal handler may run on the memory the builder shares with the host.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = clone(wh_template_child, (char *)stack + stack_bytes,
                      CLONE_VM | CLONE_VFORK | CLONE_FILES | CLONE_NEWNS | SIGCHLD, &context);
    int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    munmap(stack, stack_bytes);
    if (pid < 0) {
        *out_errno = clone_errno;
        *out_stage = wh_spawn_stage_namespaces;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (context.fd < 0) {
        *out_errno = context.error;
        *out_stage = context.stage;
        return -1;
    }
    *out_fd = context.fd;
    return 0;
}

/// The most late paths that are symbolic links (copied as links); there are none or one in practice.
enum { wh_late_links = 4 };

int wh_sandbox_enter_template(const wh_sandbox_config *config, int *stage) {
    *stage = wh_spawn_stage_mount;
    int count = config->path_count;
    int trees[count > 0 ? count : 1];
    unsigned char directories[count > 0 ? count : 1];
    char links[wh_late_links][wh_path_room];
    int link_of[count > 0 ? count : 1];
    int link_count = 0;
    for (int index = 0; index < count; index++) {
        trees[index] = -1;
        link_of[index] = -1;
    }
    int result = -1;
    int saved = 0;

    // In the host's mount namespace still: each late path as a detached mount, the paths an
    // extension can write reached without following any link.
    int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) return -1;
    for (int index = 0; index < count; index++) {
        const wh_sandbox_path *grant = &config->paths[index];
        if (!wh_sandbox_is_late(grant)) continue;
        if (config->failed_path_index != NULL) *config->failed_path_index = index;
        unsigned long long attributes = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
        if (!grant->writable) attributes |= MOUNT_ATTR_RDONLY;
        int source;
        if (grant->anchor != NULL) {
            int refused = 0;
            source = wh_open_anchored(root, grant, &refused);
            if (source < 0) {
                if (refused) *stage = wh_spawn_stage_link;
                goto done;
            }
            directories[index] = 1;
        } else {
            struct stat status;
            if (lstat(grant->path, &status) != 0) {
                if (errno == ENOENT) continue;
                goto done;
            }
            if (S_ISLNK(status.st_mode)) {
                if (link_count == wh_late_links) {
                    errno = E2BIG;
                    goto done;
                }
                ssize_t length = readlink(grant->path, links[link_count], wh_path_room - 1);
                if (length < 0) goto done;
                links[link_count][length] = '\0';
                link_of[index] = link_count++;
                continue;
            }
            directories[index] = S_ISDIR(status.st_mode);
            source = open(grant->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
            if (source < 0) goto done;
        }
        trees[index] = (int)syscall(SYS_open_tree, source, "",
                                    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | (grant->alone ? 0 : AT_RECURSIVE));
        saved = errno;
        close(source);
        errno = saved;
        if (trees[index] < 0) goto done;
        struct mount_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.attr_set = attributes;
        if (syscall(SYS_mount_setattr, trees[index], "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) != 0) goto done;
    }
    if (config->failed_path_index != NULL) *config->failed_path_index = -1;

    // A private copy of the template, then what is new at each launch.
    if (setns(config->template_fd, CLONE_NEWNS) != 0 || unshare(CLONE_NEWNS) != 0 || chdir("/") != 0) goto done;
    if (wh_mount_private_tmp("/tmp", config->tmp_bytes, config->tmp_inodes) != 0) goto done;
    // The template's /dev is every launch's: each gets a /dev/shm of its own over it.
    if (wh_mount_private_tmp("/dev/shm", config->shm_bytes, config->shm_inodes) != 0) goto done;
    for (int index = 0; index < count; index++) {
        const wh_sandbox_path *grant = &config->paths[index];
        if (trees[index] < 0 && link_of[index] < 0) continue;
        if (config->failed_path_index != NULL) *config->failed_path_index = index;
        if (wh_make_parents(grant->path, 1) != 0) goto done;
        if (link_of[index] >= 0) {
            if (symlink(links[link_of[index]], grant->path) != 0 && errno != EEXIST) goto done;
            continue;
        }
        struct stat existing;
        if (lstat(grant->path, &existing) != 0) {
            if (errno != ENOENT) goto done;
            if (directories[index]) {
                if (mkdir(grant->path, 0755) != 0) goto done;
            } else {
                int fd = open(grant->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
                if (fd < 0) goto done;
                close(fd);
            }
        } else if (S_ISLNK(existing.st_mode)) {
            errno = ELOOP;
            goto done;
        }
        if (syscall(SYS_move_mount, trees[index], "", AT_FDCWD, grant->path, MOVE_MOUNT_F_EMPTY_PATH) != 0) goto done;
    }
    if (config->failed_path_index != NULL) *config->failed_path_index = -1;
    // This process is PID 1 of the new PID namespace: the new proc shows that namespace only.
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) goto done;
    result = 0;

done:
    saved = errno;
    close(root);
    for (int index = 0; index < count; index++) {
        if (trees[index] >= 0) close(trees[index]);
    }
    errno = saved;
    return result;
}

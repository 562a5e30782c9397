#define _GNU_SOURCE
#include "wallet_sandbox.h"
#include "wallet_user_namespace.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

// Everything here runs in the spawned child between clone and exec, in the host's memory
// (CLONE_VM): system calls only, no allocation, no glibc call that touches other threads
// (setuid and friends broadcast to every thread of the process, so the raw system calls).

/// The base tmpfs is mounted on /tmp (any directory would do; bubblewrap does the same), then
/// becomes the root for a moment with the host's root under it as /oldroot and the sandbox's
/// root, another tmpfs, as /newroot. Paths are bound from /oldroot/PATH to /newroot/PATH.
const char wh_base[] = "/tmp";
const char wh_old[] = "/oldroot";
const char wh_new[] = "/newroot";


/// `prefix` + `path` into `buffer`; -1 (ENAMETOOLONG) when it does not fit.
int wh_join(char *buffer, const char *prefix, const char *path) {
    size_t prefix_length = strlen(prefix), path_length = strlen(path);
    if (prefix_length + path_length + 1 > wh_path_room) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buffer, prefix, prefix_length);
    memcpy(buffer + prefix_length, path, path_length + 1);
    return 0;
}

/// Creates every missing directory of `path` (absolute) but the last component. With
/// `refuse_links`, a symbolic link on the way fails with ELOOP instead of being followed.
int wh_make_parents(const char *path, int refuse_links) {
    char buffer[wh_path_room];
    size_t length = strlen(path);
    if (length >= sizeof buffer) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buffer, path, length + 1);
    for (size_t index = 1; index < length; index++) {
        if (buffer[index] != '/') continue;
        buffer[index] = '\0';
        struct stat existing;
        if (lstat(buffer, &existing) != 0) {
            if (errno != ENOENT || mkdir(buffer, 0755) != 0) return -1;
        } else if (refuse_links && S_ISLNK(existing.st_mode)) {
            errno = ELOOP;
            return -1;
        }
        buffer[index] = '/';
    }
    return 0;
}

/// Sets `attributes` (MOUNT_ATTR_*) on `target` and everything mounted under it.
int wh_restrict(const char *target, unsigned long long attributes_set) {
    struct mount_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.attr_set = attributes_set;
    if (syscall(SYS_mount_setattr, AT_FDCWD, target, AT_RECURSIVE, &attributes, sizeof attributes) == 0) return 0;
    if (errno != ENOSYS) return -1;
    if (!(attributes_set & MOUNT_ATTR_RDONLY)) return 0;
    // Before Linux 5.12: remount the top mount only, keeping the flags a user namespace may not clear.
    struct statvfs status;
    if (statvfs(target, &status) != 0) return -1;
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
    if (status.f_flag & ST_NOSUID) flags |= MS_NOSUID;
    if (status.f_flag & ST_NODEV) flags |= MS_NODEV;
    if (status.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
    if (status.f_flag & ST_NOATIME) flags |= MS_NOATIME;
    if (status.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (status.f_flag & ST_RELATIME) flags |= MS_RELATIME;
    return mount(NULL, target, NULL, flags, NULL);
}

/// Shows the host's `path` at the same path in the new root: a symbolic link is copied as a
/// link (/lib -> usr/lib), anything else is bound there with `attributes` (MOUNT_ATTR_*), with
/// what is mounted under it unless `alone`. A path that does not exist on the host is left out.
int wh_bind(const char *path, unsigned long long attributes, int alone) {
    char source[wh_path_room], target[wh_path_room];
    if (wh_join(source, wh_old, path) != 0 || wh_join(target, wh_new, path) != 0) return -1;
    struct stat status;
    if (lstat(source, &status) != 0) return errno == ENOENT ? 0 : -1;
    if (wh_make_parents(target, 0) != 0) return -1;
    struct stat existing;
    int exists = lstat(target, &existing) == 0;
    if (S_ISLNK(status.st_mode)) {
        if (exists) return 0;
        char link[wh_path_room];
        ssize_t length = readlink(source, link, sizeof link - 1);
        if (length < 0) return -1;
        link[length] = '\0';
        return symlink(link, target);
    }
    if (!exists) {
        if (S_ISDIR(status.st_mode)) {
            if (mkdir(target, 0755) != 0) return -1;
        } else {
            int fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (fd < 0) return -1;
            close(fd);
        }
    }
    if (mount(source, target, NULL, alone ? MS_BIND : MS_BIND | MS_REC, NULL) != 0) return -1;
    return wh_restrict(target, attributes);
}

int wh_open_beneath(int directory_fd, const char *path, int flags, unsigned int mode) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)flags;
    how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd;
    int tries = 0;
    do {
        // EAGAIN: a rename raced the lookup (RESOLVE_BENEATH then refuses to guess): look again.
        fd = syscall(SYS_openat2, directory_fd, path, &how, sizeof how);
    } while (fd < 0 && errno == EAGAIN && ++tries < 16);
    return (int)fd;
}

int wh_open_anchored(int root, const wh_sandbox_path *grant, int *refused) {
    *refused = 0;
    if (grant->name == NULL || grant->anchor == NULL || grant->anchor[0] != '/') {
        errno = EINVAL;
        return -1;
    }
    int anchor = wh_open_beneath(root, grant->anchor + 1, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (anchor < 0) return -1;
    int directory = wh_open_beneath(anchor, grant->name, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    int saved = errno;
    close(anchor);
    errno = saved;
    if (directory < 0 && (saved == ELOOP || saved == EXDEV || saved == ENOTDIR)) *refused = 1;
    return directory;
}

/// Shows a path the extension can write (`grant->anchor` set): `grant->name` is opened from the
/// anchor without following any link, then that very directory is bound (open_tree,
/// move_mount), so that a link planted on the way, or swapped in between a check and the mount,
/// is never followed. Returns 0, -1 with errno; a link or a non-directory sets `*refused`.
int wh_bind_beneath(const wh_sandbox_path *grant, unsigned long long attributes, int *refused) {
    char target[wh_path_room];
    if (wh_join(target, wh_new, grant->path) != 0) return -1;
    // The anchor is the host's own resolved path: under /oldroot it holds no link either.
    int root = open(wh_old, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) return -1;
    int directory = wh_open_anchored(root, grant, refused);
    int saved = errno;
    close(root);
    if (directory < 0) {
        errno = saved;
        return -1;
    }
    int tree = (int)syscall(SYS_open_tree, directory, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
    saved = errno;
    close(directory);
    if (tree < 0) {
        errno = saved;
        return -1;
    }
    // The mount point, in the sandbox's own tmpfs root: no link there is followed either.
    int result = -1;
    struct stat existing;
    if (wh_make_parents(target, 1) == 0) {
        int present = lstat(target, &existing) == 0;
        if (present && !S_ISDIR(existing.st_mode)) {
            errno = ENOTDIR;
        } else if ((present || (errno == ENOENT && mkdir(target, 0755) == 0)) &&
                   syscall(SYS_move_mount, tree, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) == 0) {
            result = wh_restrict(target, attributes);
        }
    }
    saved = errno;
    close(tree);
    errno = saved;
    return result;
}

/// A minimal /dev: a tmpfs holding the harmless devices bound from the host and the usual links.
/// No /dev/tty: the extension has no controlling terminal (its own session), and none of the host's.
int wh_make_dev(void) {
    char target[wh_path_room];
    if (wh_join(target, wh_new, "/dev") != 0) return -1;
    if (mkdir(target, 0755) != 0) return -1;
    if (mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") != 0) return -1;
    static const char *const devices[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom" };
    for (size_t index = 0; index < sizeof devices / sizeof devices[0]; index++) {
        if (wh_bind(devices[index], MOUNT_ATTR_NOSUID, 1) != 0) return -1;
    }
    static const char *const links[][2] = {
        { "/proc/self/fd", "/dev/fd" }, { "/proc/self/fd/0", "/dev/stdin" },
        { "/proc/self/fd/1", "/dev/stdout" }, { "/proc/self/fd/2", "/dev/stderr" },
    };
    for (size_t index = 0; index < sizeof links / sizeof links[0]; index++) {
        if (wh_join(target, wh_new, links[index][1]) != 0 || symlink(links[index][0], target) != 0) return -1;
    }
    if (wh_join(target, wh_new, "/dev/shm") != 0 || mkdir(target, 01777) != 0) return -1;
    return chmod(target, 01777);
}

int wh_sandbox_is_late(const wh_sandbox_path *grant) {
    return grant->anchor != NULL || strcmp(grant->path, "/tmp") == 0 || strncmp(grant->path, "/tmp/", 5) == 0;
}

/// Shows `config->paths[index]` (anchored or by name), recording the index for the error report.
static int wh_show(const wh_sandbox_config *config, int index, int *stage) {
    // No set-user-ID programs and no device files through any of them.
    unsigned long long attributes = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    if (!config->paths[index].writable) attributes |= MOUNT_ATTR_RDONLY;
    if (config->failed_path_index != NULL) *config->failed_path_index = index;
    if (config->paths[index].anchor != NULL) {
        int refused = 0;
        if (wh_bind_beneath(&config->paths[index], attributes, &refused) != 0) {
            if (refused) *stage = wh_spawn_stage_link;
            return -1;
        }
        return 0;
    }
    // In a user namespace the mounts under a path are locked to it: it can only be bound with them.
    return wh_bind(config->paths[index].path, attributes, config->paths[index].alone && !config->user_namespace);
}

int wh_sandbox_build_root(const wh_sandbox_config *config, int for_template, int *stage) {
    *stage = wh_spawn_stage_mount;
    // Nothing mounted here reaches the host's namespace, and nothing the host mounts later arrives.
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    if (mount("tmpfs", wh_base, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") != 0) return -1;
    if (chdir(wh_base) != 0) return -1;
    if (mkdir("newroot", 0755) != 0 || mkdir("oldroot", 0755) != 0) return -1;
    if (mount("tmpfs", "newroot", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0) return -1;
    if (syscall(SYS_pivot_root, wh_base, "oldroot") != 0) return -1;
    if (chdir("/") != 0) return -1;

    // The private /tmp first: granted paths under the host's /tmp get their directories in it.
    // A template leaves it an empty directory: each launch mounts its own there.
    char tmp[wh_path_room];
    if (wh_join(tmp, wh_new, "/tmp") != 0 || mkdir(tmp, 01777) != 0) return -1;
    if (!for_template && wh_mount_private_tmp(tmp, config->tmp_bytes, config->tmp_inodes) != 0) return -1;

    for (int index = 0; index < config->path_count; index++) {
        const wh_sandbox_path *grant = &config->paths[index];
        if (for_template && wh_sandbox_is_late(grant)) {
            // Shown at each launch; outside /tmp its mount point must exist in the read-only root.
            char target[wh_path_room];
            if (strncmp(grant->path, "/tmp", 4) == 0) continue;
            if (config->failed_path_index != NULL) *config->failed_path_index = index;
            if (wh_join(target, wh_new, grant->path) != 0 || wh_make_parents(target, 1) != 0) return -1;
            if (mkdir(target, 0755) != 0 && errno != EEXIST) return -1;
            continue;
        }
        if (wh_show(config, index, stage) != 0) return -1;
    }
    if (config->failed_path_index != NULL) *config->failed_path_index = -1;
    if (wh_make_dev() != 0) return -1;
    // Shared memory that dies with this launch; a template leaves /dev/shm for each launch to mount.
    char shm[wh_path_room];
    if (wh_join(shm, wh_new, "/dev/shm") != 0) return -1;
    if (!for_template && wh_mount_private_tmp(shm, config->shm_bytes, config->shm_inodes) != 0) return -1;
    char proc[wh_path_room];
    if (wh_join(proc, wh_new, "/proc") != 0) return -1;
    if (mkdir(proc, 0555) != 0 && errno != EEXIST) return -1;
    // This process is PID 1 of the new PID namespace: the new proc shows that namespace only.
    if (!for_template && mount("proc", proc, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) return -1;

    if (chdir(wh_new) != 0) return -1;
    if (syscall(SYS_pivot_root, ".", ".") != 0) return -1;
    // The base, with the host's root under it: one detach (each costs a grace period of the kernel's).
    if (umount2(".", MNT_DETACH) != 0) return -1;
    if (chdir("/") != 0) return -1;
    // The root itself holds only mount points: read-only, so nothing can be left at its top.
    struct mount_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.attr_set = MOUNT_ATTR_RDONLY;
    if (syscall(SYS_mount_setattr, AT_FDCWD, "/", 0, &attributes, sizeof attributes) != 0 && errno != ENOSYS) return -1;
    return 0;
}

int wh_mount_private_tmp(const char *target, long long bytes, long long inodes) {
    char options[96];
    memcpy(options, "mode=1777,size=", 15);
    char *end = wh_decimal(options + 15, (unsigned long long)bytes);
    if (inodes > 0) {
        memcpy(end, ",nr_inodes=", 11);
        wh_decimal(end + 11, (unsigned long long)inodes);
    }
    return mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options);
}

int wh_sandbox_enter(const wh_sandbox_config *config, int *stage) {
    if (config->template_fd >= 0) {
        if (wh_sandbox_enter_template(config, stage) != 0) return -1;
    } else {
        *stage = wh_spawn_stage_user_map;
        if (config->user_namespace) {
            if (wh_map_own_identity(config->outer_uid, config->outer_gid) != 0) return -1;
        }
        if (wh_sandbox_build_root(config, 0, stage) != 0) return -1;
    }

    *stage = wh_spawn_stage_credentials;
    if (config->run_as_gid >= 0) {
        if (syscall(SYS_setgroups, 0, NULL) != 0) return -1;
        gid_t gid = (gid_t)config->run_as_gid;
        if (syscall(SYS_setresgid, gid, gid, gid) != 0) return -1;
    }
    if (config->run_as_uid >= 0) {
        uid_t uid = (uid_t)config->run_as_uid;
        if (syscall(SYS_setresuid, uid, uid, uid) != 0) return -1;
    }
    // Nothing executed from here on gains privileges (set-user-ID bits, file capabilities).
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    *stage = wh_spawn_stage_none;
    return 0;
}

/// The probe's child: what a sandbox launch does first, in miniature. Returns 0, or the failed step.
static int wh_probe_child(void *argument) {
    const wh_sandbox_config *config = argument;
    if (config->user_namespace) {
        int failed_step = wh_map_own_identity(config->outer_uid, config->outer_gid);
        if (failed_step != 0) return failed_step;
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 4;
    if (mount("tmpfs", wh_base, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4k") != 0) return 5;
    return 0;
}

int wh_sandbox_probe(int user_namespace) {
    wh_sandbox_config config;
    memset(&config, 0, sizeof config);
    config.template_fd = -1;
    config.user_namespace = user_namespace;
    config.outer_uid = geteuid();
    config.outer_gid = getegid();
    int flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | SIGCHLD;
    if (user_namespace) flags |= CLONE_NEWUSER;
    // The child's steps fail only where the kernel refuses them: minus the step's number. Its
    // answer is read as soon as it exits, before the kernel tears its mount namespace down (a
    // grace period of RCU's, 10-20 ms on a loaded machine): it is reaped on a thread of its own.
    return wh_run_probe_child_unwaited(wh_probe_child, &config, flags);
}

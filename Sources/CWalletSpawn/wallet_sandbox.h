#ifndef WALLET_SANDBOX_H
#define WALLET_SANDBOX_H

#include "wallet_spawn.h"

#include <fcntl.h>
#include <linux/mount.h>

// The new mount API and openat2, for C libraries that predate them (numbers shared by every architecture).
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef MOUNT_ATTR_NOSUID
#define MOUNT_ATTR_NOSUID 0x00000002
#endif
#ifndef MOUNT_ATTR_NODEV
#define MOUNT_ATTR_NODEV 0x00000004
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif


// The sandbox's steps, shared by wallet_sandbox.c (a root built for each launch) and
// wallet_sandbox_template.c (a root built once, copied at each launch). Everything here runs in
// a child between clone and exec, in the host's memory: system calls only, no allocation.

/// Room for one path: PATH_MAX and a prefix.
enum { wh_path_room = 4096 + 64 };
/// Where the base tmpfs is mounted, and the old and new roots' names under it.
extern const char wh_base[];
extern const char wh_old[];
extern const char wh_new[];

/// In the child, right after clone into the new namespaces: maps the user namespace (if any),
/// builds the sandbox's root from `config->paths` (or enters a copy of `config->template_fd`)
/// and pivots into it, then switches user. Returns 0, or -1 with errno and `*stage` (a
/// wh_spawn_stage) naming the step that failed.
int wh_sandbox_enter(const wh_sandbox_config *config, int *stage);

/// Builds the root and pivots into it. With `for_template`, the late paths
/// (wh_sandbox_is_late) are left out, their mount points made where they lie outside /tmp, and
/// /tmp, /dev/shm and /proc stay empty directories for each launch to mount.
int wh_sandbox_build_root(const wh_sandbox_config *config, int for_template, int *stage);

/// Enters a private copy of `config->template_fd` and shows there what each launch shows anew:
/// a private /tmp and /dev/shm, the late paths, a fresh /proc.
int wh_sandbox_enter_template(const wh_sandbox_config *config, int *stage);

/// Whether a path is shown at each launch rather than kept in a template: the paths an extension
/// can write (anchored), whose contents the host checks before each launch, and anything under
/// /tmp, which each launch's private /tmp covers.
int wh_sandbox_is_late(const wh_sandbox_path *grant);

/// Mounts a fresh tmpfs (mode 1777, no set-user-ID, no devices) of `bytes` and at most `inodes`
/// files (0: the kernel's default) on `target`: the private /tmp and /dev/shm of each launch.
int wh_mount_private_tmp(const char *target, long long bytes, long long inodes);
int wh_join(char *buffer, const char *prefix, const char *path);
int wh_make_parents(const char *path, int refuse_links);
int wh_restrict(const char *target, unsigned long long attributes_set);
int wh_bind(const char *path, unsigned long long attributes, int alone);
int wh_make_dev(void);
int wh_bind_beneath(const wh_sandbox_path *grant, unsigned long long attributes, int *refused);
/// Opens (O_PATH) `grant->anchor` beneath `root` (the host's root as this process sees it), then
/// `grant->name` beneath the anchor, following no link. A link or a non-directory on the way
/// sets `*refused`. Returns the descriptor, or -1 with errno.
int wh_open_anchored(int root, const wh_sandbox_path *grant, int *refused);

#endif

// What file system a path is on: Swift's Glibc module has no <sys/vfs.h> (`statfs(2)`).
#ifndef WALLET_FILE_SYSTEM_H
#define WALLET_FILE_SYSTEM_H

/// The type of the file system `path` is on (`statfs(2)`'s `f_type`, such as 0xEF53 for
/// ext2-4), for the apps watch to tell local file systems from those changed elsewhere.
/// Returns -1 with errno set on failure.
long long wh_file_system_type(const char *path);

#endif

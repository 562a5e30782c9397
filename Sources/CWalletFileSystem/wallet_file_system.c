// What file system a path is on: Swift's Glibc module has no <sys/vfs.h> (`statfs(2)`).
#include "wallet_file_system.h"

#include <sys/vfs.h>

long long wh_file_system_type(const char *path) {
    struct statfs system;
    if (statfs(path, &system) != 0) return -1;
    return (long long)(unsigned long)system.f_type;
}

#define _GNU_SOURCE
#include "wallet_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

// Loop devices for the App Group containers' file system images (ContainerVolume.swift).

#ifndef LOOP_CONFIGURE
#define LOOP_CONFIGURE 0x4C0A
struct loop_config {
    __u32 fd;
    __u32 block_size;
    struct loop_info64 info;
    __u64 __reserved[8];
};
#endif

/// Configures the open loop device `loop` with `image_fd`: 0, or -1 with errno (EBUSY: taken).
static int wh_loop_configure(int loop, int image_fd) {
    struct loop_config config;
    memset(&config, 0, sizeof config);
    config.fd = (__u32)image_fd;
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
    if (ioctl(loop, LOOP_CONFIGURE, &config) == 0) return 0;
    if (errno != EINVAL && errno != ENOTTY) return -1;
    // Before Linux 5.8: two steps.
    if (ioctl(loop, LOOP_SET_FD, image_fd) != 0) return -1;
    struct loop_info64 info;
    memset(&info, 0, sizeof info);
    info.lo_flags = LO_FLAGS_AUTOCLEAR;
    if (ioctl(loop, LOOP_SET_STATUS64, &info) != 0) {
        int saved = errno;
        ioctl(loop, LOOP_CLR_FD, 0);
        errno = saved;
        return -1;
    }
    return 0;
}

int wh_loop_attach(int image_fd, int *out_number) {
    int control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (control < 0) return -1;
    int result = -1;
    for (int tries = 0; tries < 16; tries++) {
        int number = ioctl(control, LOOP_CTL_GET_FREE);
        if (number < 0) break;
        char path[32];
        snprintf(path, sizeof path, "/dev/loop%d", number);
        int loop = open(path, O_RDWR | O_CLOEXEC);
        if (loop < 0) {
            // Made a moment ago: udev (if any) may not have made its node yet.
            if (errno == ENOENT) {
                usleep(1000);
                continue;
            }
            break;
        }
        if (wh_loop_configure(loop, image_fd) == 0) {
            *out_number = number;
            result = loop;
            break;
        }
        int saved = errno;
        close(loop);
        errno = saved;
        // Another process configured it between GET_FREE and here: ask again.
        if (saved != EBUSY) break;
    }
    int saved = errno;
    close(control);
    errno = saved;
    return result;
}

int wh_mount_ext4(const char *device, int target_fd) {
    char target[64];
    snprintf(target, sizeof target, "/proc/self/fd/%d", target_fd);
    return mount(device, target, "ext4", MS_NOSUID | MS_NODEV, "errors=remount-ro");
}

int wh_loop_backs(unsigned int device_major, unsigned int device_minor, int image_fd) {
    char path[96];
    snprintf(path, sizeof path, "/dev/block/%u:%u", device_major, device_minor);
    int device = open(path, O_RDONLY | O_CLOEXEC);
    if (device < 0) {
        // No /dev/block: the device node by its loop number.
        snprintf(path, sizeof path, "/dev/loop%u", device_minor);
        device = open(path, O_RDONLY | O_CLOEXEC);
        if (device < 0) return -1;
    }
    struct stat node;
    struct loop_info64 info;
    struct stat image;
    int result = -1;
    if (fstat(device, &node) != 0 || fstat(image_fd, &image) != 0) goto done;
    if (!S_ISBLK(node.st_mode) || major(node.st_rdev) != device_major || minor(node.st_rdev) != device_minor) {
        result = 0;
        goto done;
    }
    if (ioctl(device, LOOP_GET_STATUS64, &info) != 0) {
        // Not a loop device (ENOTTY), or one with nothing attached (ENXIO).
        result = (errno == ENOTTY || errno == ENXIO || errno == EINVAL) ? 0 : -1;
        goto done;
    }
    result = info.lo_device == image.st_dev && info.lo_inode == image.st_ino;
done:;
    int saved = errno;
    close(device);
    errno = saved;
    return result;
}

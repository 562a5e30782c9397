#ifndef WALLET_LOOP_H
#define WALLET_LOOP_H

#pragma clang assume_nonnull begin

/// Attaches the open file `image_fd` (read-write) to a free loop device: asks
/// `/dev/loop-control` for one (LOOP_CTL_GET_FREE) and configures it (LOOP_CONFIGURE, or
/// LOOP_SET_FD and LOOP_SET_STATUS64 before Linux 5.8) with LO_FLAGS_AUTOCLEAR, so that the
/// device lets go of the image as soon as nothing holds it (the mount made from it is gone).
/// Another process taking the same free device first is retried. Returns the open device
/// (close-on-exec; mount it, then close it) and its number in `*out_number`, or -1 with errno.
int wh_loop_attach(int image_fd, int *out_number);

/// `mount(2)` of the ext4 file system on `device` over the directory open as `target_fd`
/// (reached through /proc/self/fd, so that no link on the way is followed), without set-user-ID
/// programs and device files. 0, or -1 with errno.
int wh_mount_ext4(const char *device, int target_fd);

/// Whether the block device `device_major`:`device_minor` is a loop device whose backing file is the file
/// open as `image_fd` (the same device and inode): 1, 0, or -1 with errno when it cannot tell.
int wh_loop_backs(unsigned int device_major, unsigned int device_minor, int image_fd);

#pragma clang assume_nonnull end

#endif

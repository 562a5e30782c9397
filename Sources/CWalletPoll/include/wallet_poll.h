// epoll(7) for the daemon's client loop: Swift's Glibc module does not include <sys/epoll.h>,
// and `struct epoll_event` is packed on x86-64, so the loop goes through these few calls, which
// hand events back as two plain arrays.
#ifndef WALLET_POLL_H
#define WALLET_POLL_H

#include <stdint.h>

/// Readable (or the peer closed: a read then returns 0).
static const uint32_t WH_POLL_IN = 0x001;
/// Writable.
static const uint32_t WH_POLL_OUT = 0x004;
/// An error on the descriptor (always reported).
static const uint32_t WH_POLL_ERR = 0x008;
/// The peer hung up both ways (always reported).
static const uint32_t WH_POLL_HUP = 0x010;

/// A new epoll instance, close-on-exec. Returns -1 with errno set on failure.
int wh_poll_create(void);

/// Adds `fd` with `events` (WH_POLL_IN | WH_POLL_OUT), level-triggered. Returns 0 or -1 with errno.
int wh_poll_add(int poll, int fd, uint32_t events);

/// Changes what `fd` is watched for. Returns 0 or -1 with errno.
int wh_poll_modify(int poll, int fd, uint32_t events);

/// Stops watching `fd`. Returns 0 or -1 with errno.
int wh_poll_remove(int poll, int fd);

/// Waits up to `timeout_ms` (-1: forever) for at most `capacity` ready descriptors, writing
/// each one's fd and events at the same index of `fds` and `events`. Returns how many (0 on
/// timeout), or -1 with errno (EINTR included: the caller retries).
int wh_poll_wait(int poll, int *fds, uint32_t *events, int capacity, int timeout_ms);

/// Adds `fd` with `events`, level-triggered, reported with `token` instead of its number (the
/// host loop's registration: an event of a descriptor closed and reused since cannot reach the
/// new one's handler). Returns 0 or -1 with errno.
int wh_loop_add(int poll, int fd, uint32_t events, uint64_t token);

/// Changes what `fd` is watched for, keeping `token`. Returns 0 or -1 with errno.
int wh_loop_modify(int poll, int fd, uint32_t events, uint64_t token);

/// Waits as ``wh_poll_wait`` does, writing each ready descriptor's token. `timeout_ns` < 0 waits
/// forever, 0 not at all; otherwise to the nanosecond with epoll_pwait2, or rounded up to the
/// millisecond where the system lacks it (``wh_loop_precise_wait``).
int wh_loop_wait(int poll, uint64_t *tokens, uint32_t *events, int capacity, long long timeout_ns);

/// 1 when ``wh_loop_wait`` waits to the nanosecond (epoll_pwait2 in the C library and the
/// kernel), 0 when it rounds its timeout up to the millisecond.
int wh_loop_precise_wait(void);

/// The next client of a listening socket, non-blocking and close-on-exec; -1 with errno set
/// (EAGAIN: nobody waits) otherwise.
int wh_poll_accept(int listener);

/// Makes `fd` non-blocking. Returns 0 or -1 with errno.
int wh_poll_set_nonblocking(int fd);

/// A non-blocking, close-on-exec eventfd: a counter another thread writes to wake the loop.
int wh_poll_wakeup_create(void);

/// Adds one to a wakeup's counter (never blocks).
void wh_poll_wakeup_signal(int wakeup);

/// Resets a wakeup's counter to zero.
void wh_poll_wakeup_drain(int wakeup);

#endif

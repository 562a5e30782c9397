// The baseline for warm calls: a one-line ping/pong between two processes over pipes, the
// cheapest round trip two processes can make, what a warm call through the host would cost
// with no host and no handler at all. Built by scripts/bench with the system C compiler.
//
//   pipe_echo                        the echo peer: writes back on fd 4 whatever it reads on fd 3
//   pipe_echo --measure N same|across
//                                    starts its own peer, pins both processes to one core
//                                    (`same`) or to two (`across`), and prints N round-trip
//                                    times in nanoseconds, one per line
//
// Unpinned, the scheduler usually puts the two on one core (a blocking read leaves it free);
// pinned across cores, each round trip wakes a sleeping core twice, which is what the host's
// I/O thread and caller pay when they run apart.
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char wallet_ping[] = "{\"id\":2,\"jsonrpc\":\"2.0\",\"method\":\"status\",\"params\":{}}\n";

static int wallet_echo(int in_fd, int out_fd) {
    char buffer[64 * 1024];
    while (1) {
        ssize_t count = read(in_fd, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return 0;
        for (ssize_t offset = 0; offset < count;) {
            ssize_t written = write(out_fd, buffer + offset, (size_t)(count - offset));
            if (written < 0 && errno == EINTR) continue;
            if (written < 0) return 0;
            offset += written;
        }
    }
}

static void wallet_pin(pid_t pid, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(pid, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
        exit(1);
    }
}

static long long wallet_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// Reads until a newline; the peer echoes whole lines.
static void wallet_read_line(int fd) {
    char buffer[256];
    while (1) {
        ssize_t count = read(fd, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) exit(1);
        if (memchr(buffer, '\n', (size_t)count) != NULL) return;
    }
}

static int wallet_measure(int count, int across) {
    int ping[2], pong[2];
    if (pipe(ping) != 0 || pipe(pong) != 0) return 1;
    pid_t peer = fork();
    if (peer < 0) return 1;
    if (peer == 0) {
        close(ping[1]);
        close(pong[0]);
        _exit(wallet_echo(ping[0], pong[1]));
    }
    close(ping[0]);
    close(pong[1]);
    wallet_pin(0, 0);
    wallet_pin(peer, across ? 1 : 0);
    for (int index = 0; index < count; index++) {
        long long started = wallet_now_ns();
        if (write(ping[1], wallet_ping, sizeof wallet_ping - 1) != (ssize_t)(sizeof wallet_ping - 1)) return 1;
        wallet_read_line(pong[0]);
        printf("%lld\n", wallet_now_ns() - started);
    }
    close(ping[1]);
    close(pong[0]);
    int status;
    waitpid(peer, &status, 0);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--measure") == 0) {
        return wallet_measure(atoi(argv[2]), strcmp(argv[3], "across") == 0);
    }
    return wallet_echo(3, 4);
}

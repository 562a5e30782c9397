// The baseline for warm calls: a process that writes back on fd 4 whatever it reads on fd 3.
// A one-line ping/pong with it is the cheapest round trip two processes can make over pipes,
// what a warm call through the host would cost with no host and no handler at all.
// Built by scripts/bench with the system C compiler.
#include <errno.h>
#include <unistd.h>

int main(void) {
    char buffer[64 * 1024];
    while (1) {
        ssize_t count = read(3, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return 0;
        for (ssize_t offset = 0; offset < count;) {
            ssize_t written = write(4, buffer + offset, (size_t)(count - offset));
            if (written < 0 && errno == EINTR) continue;
            if (written < 0) return 0;
            offset += written;
        }
    }
}

// The baseline of the daemon's per-request figures: a line server in a process of its own, as
// the daemon is, that answers each request line at once with a canned answer (the line the
// daemon gave once, with the request's id). Through it a client pays for its own encoding and
// decoding and for a socket round trip to another process: what the daemon adds is the rest.
//
//   canned_answer_server SOCKET ANSWER_FILE
//
// ANSWER_FILE holds one response line to request id 1 (`{"id":1,...}` and a newline); request
// N of a connection gets `{"id":N` and the rest of it. Connections are served one after the
// other. Built by scripts/bench-daemon with the system C compiler: no runtime of its own to
// wake.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

/// Answers every line of one connection until the client leaves.
static void serve(int fd, const char *suffix, size_t suffix_length) {
    static char input[1 << 16];
    static char output[1 << 20];
    long next_id = 1;
    for (;;) {
        ssize_t count = read(fd, input, sizeof input);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return;
        size_t used = 0;
        for (ssize_t index = 0; index < count; index++) {
            if (input[index] != '\n') continue;
            if (used + suffix_length + 32 > sizeof output) {
                if (write_all(fd, output, used) != 0) return;
                used = 0;
            }
            used += (size_t)snprintf(output + used, 32, "{\"id\":%ld", next_id++);
            memcpy(output + used, suffix, suffix_length);
            used += suffix_length;
        }
        if (used > 0 && write_all(fd, output, used) != 0) return;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: canned_answer_server SOCKET ANSWER_FILE\n");
        return 2;
    }
    FILE *file = fopen(argv[2], "rb");
    if (!file) {
        fprintf(stderr, "canned_answer_server: cannot read %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    // Room for one answer (and its id) in serve's output buffer.
    static char answer[(1 << 20) - 64];
    size_t length = fread(answer, 1, sizeof answer, file);
    int longer = fgetc(file) != EOF;
    fclose(file);
    if (longer) {
        fprintf(stderr, "canned_answer_server: %s is longer than %zu bytes\n", argv[2], sizeof answer);
        return 1;
    }
    const char *prefix = "{\"id\":1";
    if (length < strlen(prefix) + 1 || strncmp(answer, prefix, strlen(prefix)) != 0 || answer[length - 1] != '\n') {
        fprintf(stderr, "canned_answer_server: %s is not one answer line to request id 1\n", argv[2]);
        return 1;
    }
    const char *suffix = answer + strlen(prefix);
    size_t suffix_length = length - strlen(prefix);

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (listener < 0 || strlen(argv[1]) >= sizeof address.sun_path) {
        fprintf(stderr, "canned_answer_server: cannot make a socket at %s\n", argv[1]);
        return 1;
    }
    strcpy(address.sun_path, argv[1]);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 16) != 0) {
        fprintf(stderr, "canned_answer_server: cannot listen on %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    // A client that leaves before its answers are written ends that connection, not the server.
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (client < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return 1;
        }
        serve(client, suffix, suffix_length);
        close(client);
    }
}

// The smallest Wallet extension: a non-UI handler in C, without the SDK, that answers
// `status` with constants (docs/PROTOCOL.md). The benchmarks use it to measure the host
// alone: it has no runtime to load and no handler cost, so its cold start is the kernel's
// spawn plus two pipe round trips, and its warm call is one pipe round trip.
//
// Built by scripts/bench with the system C compiler (a SwiftPM C executable would link the
// Swift runtime and lose the point). Reads newline-delimited JSON-RPC on fd 3, writes on fd 4.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { wallet_request_fd = 3, wallet_response_fd = 4 };
/// Lines longer than this are answered as too long (the protocol's 16 MiB is not needed here).
enum { wallet_line_capacity = 1 << 20 };

/// A JSON value's raw text inside a line: not copied, not unescaped.
typedef struct {
    const char *start;
    size_t length;
} wallet_json_span;

/// Skips one JSON value starting at `cursor`; returns the first byte after it, or NULL if the
/// line ends first. Strings are skipped with their escapes; objects and arrays by depth.
static const char *wallet_skip_value(const char *cursor, const char *end) {
    int depth = 0;
    while (cursor < end) {
        char byte = *cursor;
        if (byte == '"') {
            for (cursor++; cursor < end && *cursor != '"'; cursor++) {
                if (*cursor == '\\') cursor++;
            }
            if (cursor >= end) return NULL;
            cursor++;
            if (depth == 0) return cursor;
            continue;
        }
        if (byte == '{' || byte == '[') depth++;
        if (byte == '}' || byte == ']') {
            if (depth == 0) return cursor;  // the end of the enclosing object: a bare value ended
            depth--;
            cursor++;
            if (depth == 0) return cursor;
            continue;
        }
        if (depth == 0 && (byte == ',' || byte == ' ' || byte == '\t' || byte == '\r')) return cursor;
        cursor++;
    }
    return depth == 0 ? cursor : NULL;
}

static const char *wallet_skip_space(const char *cursor, const char *end) {
    while (cursor < end && (*cursor == ' ' || *cursor == '\t' || *cursor == '\r')) cursor++;
    return cursor;
}

/// Finds the top-level members `id` and `method` of one JSON-RPC object (any key order, any
/// insignificant whitespace). Returns 0 on success, -1 when the line is not an object.
static int wallet_read_envelope(const char *line, size_t length, wallet_json_span *id, wallet_json_span *method) {
    const char *cursor = line, *end = line + length;
    *id = (wallet_json_span){ NULL, 0 };
    *method = (wallet_json_span){ NULL, 0 };
    cursor = wallet_skip_space(cursor, end);
    if (cursor >= end || *cursor != '{') return -1;
    cursor++;
    while (1) {
        cursor = wallet_skip_space(cursor, end);
        if (cursor < end && *cursor == '}') return 0;
        if (cursor >= end || *cursor != '"') return -1;
        const char *key = cursor + 1;
        const char *key_end = wallet_skip_value(cursor, end);
        if (key_end == NULL) return -1;
        size_t key_length = (size_t)(key_end - 1 - key);
        cursor = wallet_skip_space(key_end, end);
        if (cursor >= end || *cursor != ':') return -1;
        cursor = wallet_skip_space(cursor + 1, end);
        const char *value_end = wallet_skip_value(cursor, end);
        if (value_end == NULL) return -1;
        wallet_json_span value = { cursor, (size_t)(value_end - cursor) };
        while (value.length > 0 && (value.start[value.length - 1] == ' ' || value.start[value.length - 1] == '\t')) {
            value.length--;
        }
        if (key_length == 2 && memcmp(key, "id", 2) == 0) *id = value;
        if (key_length == 6 && memcmp(key, "method", 6) == 0) *method = value;
        cursor = wallet_skip_space(value_end, end);
        if (cursor < end && *cursor == ',') cursor++;
    }
}

static int wallet_span_is(wallet_json_span span, const char *text) {
    size_t length = strlen(text);
    return span.length == length && memcmp(span.start, text, length) == 0;
}

/// Writes one whole line (one write(2) unless the pipe is full). Exits when the host is gone.
static void wallet_write_line(const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(wallet_response_fd, bytes, length);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) _exit(0);  // EPIPE: the host has gone
        bytes += written;
        length -= (size_t)written;
    }
}

/// Answers request `id` (its raw JSON text) with `member` (`"result":...` or `"error":...`).
static void wallet_respond(wallet_json_span id, const char *member) {
    char line[512];
    int length = snprintf(line, sizeof line, "{\"id\":%.*s,\"jsonrpc\":\"2.0\",%s}\n", (int)id.length, id.start, member);
    if (length > 0 && (size_t)length < sizeof line) wallet_write_line(line, (size_t)length);
}

static void wallet_handle_line(const char *line, size_t length, int *shutting_down) {
    wallet_json_span id, method;
    if (wallet_read_envelope(line, length, &id, &method) != 0) {
        static const char parse_error[] =
            "{\"error\":{\"code\":-32700,\"message\":\"not a JSON object\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n";
        wallet_write_line(parse_error, sizeof parse_error - 1);
        return;
    }
    int is_request = id.start != NULL && !wallet_span_is(id, "null");
    if (method.start == NULL) return;  // a response to a service request: this extension sends none
    if (wallet_span_is(method, "\"exit\"")) _exit(0);
    if (!is_request) return;  // $/cancelRequest and other notifications: every call completes at once
    if (*shutting_down) {
        wallet_respond(id, "\"error\":{\"code\":-32600,\"message\":\"shutting down\"}");
    } else if (wallet_span_is(method, "\"initialize\"")) {
        wallet_respond(id, "\"result\":{\"methods\":[\"status\"],\"protocolVersion\":1,"
                           "\"runtime\":{\"name\":\"c-bench\",\"version\":\"1\"}}");
    } else if (wallet_span_is(method, "\"status\"")) {
        wallet_respond(id, "\"result\":{\"passEntriesAvailable\":true,\"remotePassEntriesAvailable\":false,"
                           "\"requiresAuthentication\":false}");
    } else if (wallet_span_is(method, "\"shutdown\"")) {
        *shutting_down = 1;
        wallet_respond(id, "\"result\":null");
    } else {
        wallet_respond(id, "\"error\":{\"code\":-32601,\"message\":\"method not found\"}");
    }
}

int main(void) {
    if (getenv("WALLET_EXTENSION_PROTOCOL") == NULL) {
        fputs("c_status_ext is a Wallet extension meant to run under wallet-host (it speaks on fds 3 and 4).\n", stderr);
        return 2;
    }
    static char buffer[wallet_line_capacity];
    size_t filled = 0;
    int shutting_down = 0;
    int discarding = 0;  // inside a line longer than the buffer: drop it up to its newline
    while (1) {
        ssize_t count = read(wallet_request_fd, buffer + filled, sizeof buffer - filled);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return 0;  // end of file: the host closed the connection
        filled += (size_t)count;
        char *line = buffer;
        char *newline;
        while ((newline = memchr(line, '\n', filled - (size_t)(line - buffer))) != NULL) {
            if (!discarding) wallet_handle_line(line, (size_t)(newline - line), &shutting_down);
            discarding = 0;
            line = newline + 1;
        }
        filled -= (size_t)(line - buffer);
        memmove(buffer, line, filled);
        if (filled == sizeof buffer) {
            static const char too_long[] =
                "{\"error\":{\"code\":-32005,\"message\":\"line too long\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n";
            wallet_write_line(too_long, sizeof too_long - 1);
            discarding = 1;
            filled = 0;
        }
    }
}

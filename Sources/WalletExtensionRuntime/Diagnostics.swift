import WalletSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Log lines of the SDK itself. They go to stderr, which the host captures into the
/// extension's log; stdout and stderr are never protocol.
package enum Diagnostics {
    /// Writes one line to stderr, prefixed so that SDK lines stand out from the handler's own.
    package static func log(_ message: String) {
        writeToStandardError("WalletExtensionKit: \(message)\n")
    }

    /// Makes `print` output reach the host's log line by line instead of in 4 KiB blocks
    /// (stdout is a pipe, so the C library would buffer it fully until exit).
    package static func makeStandardOutputLineBuffered() {
        // `stdout` is a C global that Swift 6 refuses to touch; look its address up instead.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "stdout"),
              let standardOutput = symbol.load(as: UnsafeMutablePointer<FILE>?.self) else { return }
        setvbuf(standardOutput, nil, _IOLBF, 0)
    }

    /// Writes text to fd 2 with a single `write(2)`, so that lines from concurrent calls do
    /// not interleave (the host reads stderr line by line).
    package static func writeToStandardError(_ text: String) {
        var text = text
        // A failed write drops the rest: a log line is never worth blocking or failing for.
        text.withUTF8 { buffer in _ = try? SystemCall.writeAll(STDERR_FILENO, UnsafeRawBufferPointer(buffer)) }
    }
}

/// Carries a value across an isolation boundary that the compiler cannot prove safe.
///
/// Used only where the SDK owns the value for one request and hands it over whole
/// (a handler instance that serves exactly one call, a presented authorization
/// controller kept alive until it completes).
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}

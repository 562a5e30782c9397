import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The line-oriented terminal the ``InteractiveUserAgent`` talks through: a line reader and a
/// writer. ``standard`` is the process's stdin and stdout; tests inject closures instead.
public struct TerminalIO: Sendable {
    /// Reads one line, without its line ending; `nil` at the end of input. `hidden` is true for a
    /// secure field, whose text must not be echoed.
    public var readLine: @Sendable (_ hidden: Bool) throws -> String?
    /// Writes text as it is (prompts end without a newline).
    public var write: @Sendable (String) -> Void

    /// Creates a terminal from a line reader and a writer.
    /// - Parameters:
    ///   - readLine: Returns the next line, or `nil` at the end of input; its argument is true
    ///     when the line must be read without echo.
    ///   - write: Shows text to the user.
    public init(readLine: @escaping @Sendable (_ hidden: Bool) throws -> String?, write: @escaping @Sendable (String) -> Void) {
        self.readLine = readLine
        self.write = write
    }

    /// The process's standard input and output.
    public static var standard: TerminalIO { fileDescriptors(input: STDIN_FILENO, output: STDOUT_FILENO) }

    /// A terminal on two file descriptors, which stay open and owned by the caller.
    ///
    /// Hidden lines are read with echo turned off through termios when `input` is a terminal,
    /// and the terminal is restored on every way out: the line read, end of input, a read
    /// error, and SIGINT, SIGTERM, SIGHUP or SIGQUIT arriving meanwhile (restored, then the
    /// signal goes on to its previous handler). When `input` is not a terminal (a pipe, a file)
    /// termios is not touched and hidden lines are read like any other.
    /// - Parameters:
    ///   - input: Where lines are read from, one byte at a time so nothing past the line is consumed.
    ///   - output: Where prompts are written, control characters escaped (``TerminalText``): a
    ///     screen's title, message, labels and actions are the extension's.
    /// - Returns: The terminal.
    public static func fileDescriptors(input: Int32, output: Int32) -> TerminalIO {
        TerminalIO(
            readLine: { hidden in
                guard hidden, isatty(input) == 1 else { return try readLineBytes(from: input) }
                return try TerminalEcho.withEchoOff(input) { try readLineBytes(from: input) }
            },
            write: { text in writeAll(Array(TerminalText.escaped(text).utf8), to: output) }
        )
    }

    /// Reads up to and including a newline; returns the line without `\n` or `\r\n`, or nil at
    /// end of input before any byte.
    private static func readLineBytes(from descriptor: Int32) throws -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = SystemCall.retryingInterrupts { read(descriptor, &byte, 1) }
            if count == 1 {
                if byte == UInt8(ascii: "\n") { break }
                line.append(byte)
            } else if count == 0 {
                if line.isEmpty { return nil }
                break
            } else {
                throw UserAgentError("cannot read from the terminal: \(String(cString: strerror(errno)))")
            }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = SystemCall.retryingInterrupts { Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset) }
                if written > 0 {
                    offset += written
                } else {
                    return  // the terminal is gone; there is nobody left to show this to
                }
            }
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run at a terminal: its stdin, stdout and stderr are a pseudo-terminal's
/// secondary side, and the test types and reads on the primary side as a person would.
public final class PseudoTerminal {
    private let primary: Int32
    private let process = Process()
    /// Everything the program wrote so far (with what the terminal echoed of the typing).
    public private(set) var output = ""

    /// Starts `executable` with `arguments` at a new terminal.
    /// - Throws: When the terminal cannot be made or the program cannot be started.
    public init(_ executable: URL, _ arguments: [String]) throws {
        primary = PTY.openPrimary(O_RDWR | O_NOCTTY)
        guard primary >= 0, PTY.grant(primary) == 0, PTY.unlock(primary) == 0 else {
            throw PseudoTerminalError(description: "posix_openpt failed (errno \(errno))")
        }
        var name = [CChar](repeating: 0, count: 128)
        guard PTY.secondaryName(primary, &name, name.count) == 0 else {
            throw PseudoTerminalError(description: "ptsname_r failed (errno \(errno))")
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let secondary = open(path, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw PseudoTerminalError(description: "cannot open \(path) (errno \(errno))") }
        let handle = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Only the program holds the secondary side now: when it exits, reads here end (EIO).
        try handle.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(primary)
    }

    /// Reads what the program writes until `text` appears after `position` (the length of the
    /// output already looked at), the program closes the terminal, or `timeout` passes.
    /// - Returns: Whether `text` appeared.
    @discardableResult
    public func read(until text: String, timeout: Duration = .seconds(30)) -> Bool {
        let giveUp = ContinuousClock.now + timeout
        while !output.contains(text) {
            let left = giveUp - ContinuousClock.now
            guard left > .zero else { return false }
            var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(1000, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&descriptor, 1, max(1, milliseconds)) >= 0 || errno == EINTR else { return false }
            guard descriptor.revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = Glibc.read(primary, &buffer, buffer.count)
            if count <= 0 { return output.contains(text) }
            output += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return true
    }

    /// Types `line` and Return.
    public func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
    }

    /// Waits until the program turned the terminal's echo off (as it does to read a password
    /// after its prompt), so that what is typed next is not echoed because it came too soon.
    /// - Returns: false when echo is still on after `timeout`.
    public func waitForEchoOff(timeout: Duration = .seconds(10)) -> Bool {
        let giveUp = ContinuousClock.now + timeout
        while ContinuousClock.now < giveUp {
            // On Linux the primary side reports the secondary side's settings.
            var settings = termios()
            if tcgetattr(primary, &settings) == 0, settings.c_lflag & tcflag_t(ECHO) == 0 { return true }
            usleep(2_000)
        }
        return false
    }

    /// Reads the rest of the output and waits for the program to exit.
    /// - Returns: Its exit status.
    public func finish(timeout: Duration = .seconds(60)) -> Int32 {
        read(until: "\u{0}never written\u{0}", timeout: timeout)
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// glibc's pseudo-terminal calls, which Swift's Glibc module leaves out (they need _XOPEN_SOURCE).
private enum PTY {
    private static func function<T>(_ name: String, as type: T.Type) -> T {
        // RTLD_DEFAULT: the process's global symbols, libc among them.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("libc has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }

    static let openPrimary = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let secondaryName = function("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
}

/// A pseudo-terminal could not be made.
public struct PseudoTerminalError: Error, CustomStringConvertible {
    public var description: String
}

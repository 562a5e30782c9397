import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns terminal echo off around a read, for passwords, and puts the terminal back however
/// the read ends, including when a terminating signal arrives in the middle.
enum TerminalEcho {
    /// The signals whose default action ends the process; their arrival must not leave echo off.
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// One echo-off section at a time in the process: the saved state below is shared.
    private static let section = Mutex(())

    /// Runs `body` with echo off on the terminal `descriptor` (newlines still echo, so the
    /// cursor moves on when the user presses Return).
    /// - Throws: What `body` throws; if the terminal cannot be changed, `body` runs with echo on.
    static func withEchoOff<T>(_ descriptor: Int32, _ body: () throws -> T) throws -> T {
        try section.withLock { _ in
            var original = termios()
            guard tcgetattr(descriptor, &original) == 0 else { return try body() }
            var quiet = original
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            SignalRestore.terminalDescriptor.pointee = descriptor
            SignalRestore.terminalState.pointee = original
            SignalRestore.install(signals)
            defer {
                _ = tcsetattr(descriptor, TCSANOW, &original)
                SignalRestore.uninstall(signals)
            }
            guard tcsetattr(descriptor, TCSANOW, &quiet) == 0 else { return try body() }
            return try body()
        }
    }
}

/// State for the signal handler, in memory allocated once and never freed, because a signal
/// handler may only touch plain memory (no locks, no allocation, no reference counting).
/// Written only while the handlers are not installed, under ``TerminalEcho``'s section lock.
private enum SignalRestore {
    nonisolated(unsafe) static let terminalDescriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    nonisolated(unsafe) static let terminalState = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    /// The actions the handlers replaced, indexed by signal number.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(slotCount))
        actions.initialize(repeating: sigaction(), count: Int(slotCount))
        return actions
    }()
    static let slotCount: Int32 = 65

    static func install(_ signals: [Int32]) {
        _ = previousActions  // allocate before any handler can run
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        #if os(Linux)
        action.__sigaction_handler.sa_handler = restoreTerminalAndResignal
        #else
        action.__sigaction_u.__sa_handler = restoreTerminalAndResignal
        #endif
        for signal in signals where signal < slotCount {
            _ = sigaction(signal, &action, previousActions + Int(signal))
        }
    }

    static func uninstall(_ signals: [Int32]) {
        for signal in signals where signal < slotCount {
            _ = sigaction(signal, previousActions + Int(signal), nil)
        }
    }
}

/// Puts the terminal back, reinstates the signal's previous action and raises the signal again,
/// so the process ends (or the previous handler runs) with echo on. Async-signal-safe calls only.
private func restoreTerminalAndResignal(_ signal: Int32) {
    _ = tcsetattr(SignalRestore.terminalDescriptor.pointee, TCSANOW, SignalRestore.terminalState)
    if signal >= 0 && signal < SignalRestore.slotCount {
        _ = sigaction(signal, SignalRestore.previousActions + Int(signal), nil)
    }
    _ = raise(signal)
}

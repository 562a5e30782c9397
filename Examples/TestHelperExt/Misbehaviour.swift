@_spi(Testing) import WalletExtensionKit
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process-wide side of the misbehaviour modes: things that outlive one handler
/// instance (held memory, counters) or end the process.
enum Misbehaviour {
    /// Incremented on every call in the process; instance counters, by contrast, restart
    /// at zero because every call gets a fresh handler.
    static let globalCalls = Atomic<Int>(0)

    /// Blocks allocated by the allocate modes, kept until the process ends. Stored as
    /// addresses so that the list is plainly Sendable.
    private static let heldBlocks = Mutex<[UInt]>([])

    static func sleep(milliseconds: Int) {
        usleep(UInt32(milliseconds) * 1000)
    }

    /// Dies by SIGSEGV, with the default action restored so that no crash handler (such as
    /// Swift's backtracer) delays or changes the death.
    static func crashWithSegmentationFault() -> Never {
        signal(SIGSEGV, SIG_DFL)
        raise(SIGSEGV)
        fatalError("SIGSEGV did not end the process")
    }

    /// Allocates `megabytes` MB in blocks of `blockSize` bytes (one block when nil), writes
    /// every page so that it counts as footprint, and holds on to it.
    ///
    /// Uses `malloc`, which returns NULL at the `RLIMIT_DATA` limit; the helper then dies the
    /// way a Swift allocation would, with the same message.
    static func allocate(megabytes: Int, blockSize: Int? = nil) {
        let total = megabytes * 1024 * 1024
        let size = blockSize ?? total
        var allocated = 0
        while allocated < total {
            let count = min(size, total - allocated)
            guard let block = malloc(count) else {
                StandardError.writeLine("Fatal error: failed to allocate \(count) bytes (after \(allocated) of \(total))")
                abort()
            }
            memset(block, 0xA5, count)
            heldBlocks.withLock { $0.append(UInt(bitPattern: block)) }
            allocated += count
        }
        print("TestHelperExt: holding \(megabytes) MB in \(heldBlocks.withLock { $0.count }) block(s)")
    }

    /// Forks a grandchild that keeps every inherited descriptor (fd 3 and fd 4 included) for
    /// 30 s, then ends this process with status 1 without answering.
    static func forkGrandchildAndExit() -> Never {
        let child = fork()
        if child == 0 {
            // Only async-signal-safe calls in the child of a multithreaded process.
            Glibc.sleep(30)
            _exit(0)
        }
        print("TestHelperExt: forked grandchild \(child); exiting 1 without answering")
        exit(1)
    }

    /// Makes the process deaf to `exit`, end of input and SIGTERM (or hears them again).
    static func ignoreExitRequests(_ ignore: Bool) {
        signal(SIGTERM, ignore ? SIG_IGN : SIG_DFL)
        WalletExtensionTesting.exitsWhenHostAsks = !ignore
    }

    /// Writes a line that is not JSON on fd 4.
    static func writeGarbageLine() {
        WalletExtensionTesting.writeRawLine("this is not JSON {{{")
    }

    /// Writes a 17 MiB line (over the 16 MiB limit) on fd 4.
    static func writeOversizedLine() {
        var line = Data(repeating: UInt8(ascii: "x"), count: 17 * 1024 * 1024)
        line.append(UInt8(ascii: "\n"))
        WalletExtensionTesting.writeRaw(line)
    }

    /// Prints on stdout and stderr: logs, which must never be taken for protocol.
    static func makeNoise() {
        for index in 1...3 {
            print("TestHelperExt: noise on stdout \(index) {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}")
            StandardError.writeLine("TestHelperExt: noise on stderr \(index)")
        }
    }
}

/// Lines on stderr, one `write(2)` each (the host reads stderr line by line).
enum StandardError {
    static func writeLine(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { buffer in _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count) }
    }
}

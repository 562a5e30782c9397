import Synchronization
import WalletSystemCalls
import WalletWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads fd 3, splits it into lines and hands them to the runtime, as a leader/follower pool.
///
/// One thread at a time holds the reader role. When a line starts a handler call, that thread
/// runs the call itself: the call starts without a thread switch (a switch costs more than the
/// rest of a warm `status` round trip on a small machine). A call that returns at once leaves
/// the thread reading on, with no thread woken at all; one that runs on has the role taken
/// over by the ``ReaderStandby`` (and one that waits for a host service, at once), so that a
/// reader keeps handling `$/cancelRequest`, `exit` and the answers to service requests however
/// busy (or stuck) the handlers are. While a taken-over call still runs, the thread hands the
/// role to a parked worker before it runs a call.
package final class HostInputReader: @unchecked Sendable {
    // Every mutable field below belongs to the thread holding the reader role; the role passes
    // between threads through WorkerPool (its lock and semaphore) or ReaderStandby (its lock),
    // which order the accesses.
    private let fileDescriptor: Int32
    private var framer = LineFramer()
    private var unprocessed: [LineFramer.Frame] = []
    private var receiving = false
    private var callToRun: (@Sendable () -> Void)?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    private let runtime = Mutex<ExtensionRuntime?>(nil)
    private let standby = ReaderStandby()

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit {
        buffer.deallocate()
    }

    /// The runtime's way to start a call. Called from inside `runtime.receive(line:)` on the
    /// reader's thread, it keeps the call to run right there, once the line is handled; from
    /// anywhere else it starts the call on a pooled thread.
    package func startCall(name: String, _ work: @escaping @Sendable () -> Void) -> Bool {
        if receiving, callToRun == nil {
            callToRun = work
            return true
        }
        return WorkerPool.shared.start(name: name, work)
    }

    /// A handler's thread is about to wait for the host (a synchronous host service): if the
    /// reader lent itself to that call, the reader role passes to another thread now.
    package func threadWillBlock() {
        standby.threadWillBlock()
    }

    /// Starts reading on a pooled thread.
    /// - Returns: `false` when no thread could be started.
    package func start(runtime: ExtensionRuntime) -> Bool {
        self.runtime.withLock { $0 = runtime }
        return startThread(as: .reader)
    }

    /// What a thread of the reader side does next.
    private enum Role {
        /// Hold the reader role.
        case reader
        /// Watch the reader's lent calls, and take the role over when one runs on.
        case standby
        /// Nothing: back to the worker pool.
        case done
    }

    private func startThread(as role: Role) -> Bool {
        WorkerPool.shared.start(name: role == .reader ? "wallet-reader" : "wallet-standby") { self.serve(as: role) }
    }

    /// Moves between the reader and standby roles without a thread switch, in a loop rather
    /// than by recursion: a thread may change roles any number of times.
    private func serve(as role: Role) {
        var role = role
        while true {
            switch role {
            case .reader: role = read()
            case .standby: role = standby.watch() ? .reader : .done
            case .done: return
            }
        }
    }

    /// Holds the reader role until end of input or until the role passes to another thread.
    /// - Returns: What this thread does next.
    private func read() -> Role {
        guard let runtime = runtime.withLock({ $0 }) else { return .done }
        while true {
            while !unprocessed.isEmpty {
                let frame = unprocessed.removeFirst()
                if let next = handle(frame, runtime: runtime) { return next }
            }
            let count: Int
            do {
                // fd 3 blocks: nil (would block) does not happen, and ends the input if it does.
                guard let read = try SystemCall.read(fileDescriptor, into: buffer), read > 0 else { break }
                count = read
            } catch {
                Diagnostics.log("reading fd \(fileDescriptor) failed: \(error)")
                break
            }
            unprocessed = framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        let halfLine = framer.finish()
        if halfLine > 0 {
            Diagnostics.log("fd \(fileDescriptor) ended inside a line; \(halfLine) bytes dropped")
        }
        runtime.receiveEndOfInput()
        return .done
    }

    /// Handles one frame.
    /// - Returns: nil while this thread is still the reader; otherwise the frame started a call
    ///   that this thread ran after the reader role passed to another (before the call or
    ///   during it), and what the thread does next.
    private func handle(_ frame: LineFramer.Frame, runtime: ExtensionRuntime) -> Role? {
        switch frame {
        case .line(let line):
            receiving = true
            runtime.receive(line: line)
            receiving = false
        case .oversized(let byteCount):
            runtime.receiveOversizedLine(byteCount: byteCount)
        }
        guard let work = callToRun else { return nil }
        callToRun = nil
        if let loan = standby.lend(startingStandbyWith: { startThread(as: .standby) }) {
            work()
            // Taken over, another thread reads now and this one must not touch the reader's
            // state; it stands by in turn if no thread does (it is awake, the parked one is not).
            switch standby.callReturned(loan) {
            case .stillReader: return nil
            case .standBy: return .standby
            case .done: return .done
            }
        }
        guard startThread(as: .reader) else {
            // No thread for the reader role: run the call here and keep reading afterwards.
            Diagnostics.log("could not start a reader thread; running the call on the reader")
            work()
            return nil
        }
        work()
        return .done
    }
}

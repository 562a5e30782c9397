import CWalletSpawn
import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Lines of stderr kept for diagnosis (crash reasons, allocation failures).
private let stderrTailCapacity = 24
/// Protocol violations tolerated before an extension is declared beyond repair.
let malformedLineBudget = 32
/// The longest the I/O thread sleeps: calls due later than this need not wake it.
let idlePollInterval: Duration = .milliseconds(50)
/// Lines of stdout, stderr and `$/log` logged per process.
private let outputLineCap = 100_000

/// The I/O thread's own mutable state (never shared, so no lock).
struct LoopState {
    var rpcFramer = LineFramer()
    var stdoutFramer = LineFramer(maximumLineBytes: 64 * 1024)
    var stderrFramer = LineFramer(maximumLineBytes: 64 * 1024)
    var rpcOpen = true
    var stdoutOpen = true
    var stderrOpen = true
    var codec = WireCodec()
    var malformedLines = 0
    var outputLines = 0
    var stderrTail: [String] = []
    /// Set when any stderr line reads like a failed allocation (the runtime's backtrace that
    /// follows can push it out of the tail).
    var sawAllocationFailure = false
    var lastSample = ContinuousClock.now - .seconds(1)
}

extension ExtensionConnection {
    /// The I/O thread's body: returns after the process was reaped and every call resolved.
    func runLoop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var loop = LoopState()
        while true {
            let now = ContinuousClock.now
            let (timeout, wantsWrite, hasCalls) = pollPlan(now: now)
            var fds = [
                pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: loop.rpcOpen ? child.responseReader : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: loop.stdoutOpen ? child.stdoutReader : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: loop.stderrOpen ? child.stderrReader : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wantsWrite ? child.requestWriter : -1, events: Int16(POLLOUT), revents: 0),
            ]
            // Without a pidfd, look for the exit every 20 ms.
            let effectiveTimeout = child.exitDescriptor < 0 ? min(timeout < 0 ? 20 : timeout, 20) : timeout
            _ = SystemCall.poll(&fds, timeoutMilliseconds: effectiveTimeout)
            let ready = { (index: Int) in fds[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }

            if ready(0) { drainWakeup(buffer) }
            if ready(2) { readResponses(buffer, loop: &loop) }
            if ready(3) { readOutput(buffer, stream: "stdout", loop: &loop) }
            if ready(4) { readOutput(buffer, stream: "stderr", loop: &loop) }
            if fds[5].revents != 0 { flushOutgoing() }

            if ready(1) || child.exitDescriptor < 0, let status = child.reapIfExited() {
                finish(status: status, buffer: buffer, loop: &loop)
                return
            }
            let after = ContinuousClock.now
            expireDeadlines(now: after)
            if hasCalls && after - loop.lastSample >= context.sampleInterval {
                loop.lastSample = after
                sampleFootprint()
            }
        }
    }

    /// The poll timeout in milliseconds (-1: none), whether output is waiting, whether calls are in flight.
    private func pollPlan(now: ContinuousClock.Instant) -> (Int32, Bool, Bool) {
        state.withLock { state in
            var nearest: ContinuousClock.Instant?
            for call in state.pending.values {
                if let deadline = call.deadline, nearest.map({ deadline < $0 }) ?? true { nearest = deadline }
            }
            for call in state.expired.values where nearest.map({ call.hangDeadline < $0 }) ?? true {
                nearest = call.hangDeadline
            }
            let hasCalls = !state.pending.isEmpty
            if hasCalls {
                let nextSample = now + context.sampleInterval
                if nearest.map({ nextSample < $0 }) ?? true { nearest = nextSample }
            }
            let wakeAt = min(nearest ?? now + idlePollInterval, now + idlePollInterval)
            state.plannedWake = wakeAt
            let milliseconds = max(0, Int32(clamping: Int64(((wakeAt - now) / .milliseconds(1)).rounded(.up))))
            return (milliseconds, !state.outgoing.isEmpty, hasCalls)
        }
    }

    private func drainWakeup(_ buffer: UnsafeMutableRawBufferPointer) {
        while let count = try? SystemCall.read(wakeup.read, into: buffer), count > 0 {}
    }

    func flushOutgoing() {
        state.withLock { state in
            guard !state.outgoing.isEmpty, state.exit == nil else { return }
            let written = (try? state.outgoing.withUnsafeBytes { try SystemCall.write(child.requestWriter, $0) })
            guard let written else {
                // The read end is gone (the child closed fd 3 or died): its exit will resolve the calls.
                state.outgoing.removeAll()
                return
            }
            state.outgoing.removeFirst(written)
        }
    }

    // MARK: Reading

    private func readResponses(_ buffer: UnsafeMutableRawBufferPointer, loop: inout LoopState) {
        // Bounded, so one chatty extension cannot starve this thread's other duties.
        for _ in 0..<64 {
            let count: Int?
            do {
                count = try SystemCall.read(child.responseReader, into: buffer)
            } catch {
                count = 0
            }
            guard let count else { return }
            if count == 0 {
                loop.rpcOpen = false
                responseChannelClosed(loop: &loop)
                return
            }
            for frame in loop.rpcFramer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                handle(frame, loop: &loop)
            }
        }
    }

    private func readOutput(_ buffer: UnsafeMutableRawBufferPointer, stream: String, loop: inout LoopState) {
        let fd = stream == "stdout" ? child.stdoutReader : child.stderrReader
        for _ in 0..<16 {
            let result: Int?
            do {
                result = try SystemCall.read(fd, into: buffer)
            } catch {
                result = 0
            }
            guard let count = result else { return }
            if count == 0 {
                if stream == "stdout" { loop.stdoutOpen = false } else { loop.stderrOpen = false }
                let tail = stream == "stdout" ? loop.stdoutFramer.finish() : loop.stderrFramer.finish()
                if tail > 0 { recordOutput("(\(tail) bytes without a final newline)", stream: stream, loop: &loop) }
                return
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            let frames = stream == "stdout" ? loop.stdoutFramer.append(chunk) : loop.stderrFramer.append(chunk)
            for frame in frames {
                switch frame {
                case .line(let data): recordOutput(String(decoding: data, as: UTF8.self), stream: stream, loop: &loop)
                case .oversized(let count): recordOutput("(a line of \(count) bytes, not shown)", stream: stream, loop: &loop)
                }
            }
        }
    }

    func recordOutput(_ line: String, stream: String, loop: inout LoopState) {
        // A flood of output must not fill the disk: past the cap, one note and then silence.
        loop.outputLines += 1
        if loop.outputLines > outputLineCap {
            if loop.outputLines == outputLineCap + 1 {
                context.events.recordOutput(bundleIdentifier: context.bundleIdentifier, pid: child.pid, stream: "host",
                                            line: "(more than \(outputLineCap) lines of output; the rest is not logged)")
            }
            if stream == "stderr", !loop.sawAllocationFailure, Self.looksLikeAllocationFailure([line]) {
                loop.sawAllocationFailure = true
            }
            return
        }
        if stream == "stderr" {
            if !loop.sawAllocationFailure, Self.looksLikeAllocationFailure([line]) { loop.sawAllocationFailure = true }
            loop.stderrTail.append(line)
            if loop.stderrTail.count > stderrTailCapacity { loop.stderrTail.removeFirst() }
        }
        context.events.recordOutput(bundleIdentifier: context.bundleIdentifier, pid: child.pid, stream: stream, line: line)
    }

    // MARK: Timers

    private func expireDeadlines(now: ContinuousClock.Instant) {
        var missed: [(RequestID, PendingCall)] = []
        var hung: [(RequestID, ExpiredCall)] = []
        state.withLock { state in
            for (id, call) in state.pending {
                guard let deadline = call.deadline, deadline <= now else { continue }
                state.pending[id] = nil
                state.gatedIDs.removeAll { $0 == id }
                missed.append((id, call))
                if call.sentAt != nil {
                    state.expired[id] = ExpiredCall(method: call.method, askedAt: call.askedAt, deadline: deadline,
                                                    hangDeadline: now + context.hangGrace)
                    if let line = try? state.codec.notification(method: WireMethod.cancelRequest,
                                                                 params: CancelRequestParams(id: id)) {
                        writeLocked(line, state: &state)
                    }
                }
            }
            for (id, call) in state.expired where call.hangDeadline <= now {
                state.expired[id] = nil
                // An acknowledged cancel shows a live extension; a result that never comes is its own business.
                if !call.acknowledged { hung.append((id, call)) }
            }
        }
        for (id, call) in missed {
            let error = deadlineError(call, now: now)
            context.events.record(HostEvent(kind: "deadlineMiss", bundleIdentifier: context.bundleIdentifier,
                                            pid: child.pid, method: call.method, requestID: id.description,
                                            milliseconds: (now - call.askedAt).milliseconds, message: error.message))
            call.continuation.resume(returning: CallReply(outcome: .failure(error), peakFootprintBytes: call.peakFootprintBytes,
                                                          sentAt: call.sentAt, finishedAt: now))
        }
        if let (id, call) = hung.first {
            let silence = (now - call.deadline).milliseconds
            let reason = "hung: no answer to \(call.method) (id \(id)) \(HumanReadable.milliseconds(silence)) after its deadline"
            context.events.record(HostEvent(kind: "hung", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                            method: call.method, requestID: id.description, message: reason))
            Task { _ = await self.stop(reason: reason, grace: .milliseconds(200)) }
        }
    }

    private func deadlineError(_ call: PendingCall, now: ContinuousClock.Instant) -> ExtensionCallError {
        let allowed = ((call.deadline ?? now) - call.askedAt).milliseconds
        let elapsed = (now - call.askedAt).milliseconds
        var message = "\(call.method) did not complete within its \(HumanReadable.milliseconds(allowed)) deadline "
        if let sentAt = call.sentAt {
            let launch = (sentAt - call.askedAt).milliseconds
            message += "(no answer \(HumanReadable.milliseconds(elapsed)) after the ask, over by \(HumanReadable.milliseconds(elapsed - allowed))"
            message += launch >= 1 ? "; launch and handshake took \(HumanReadable.milliseconds(launch)))" : ")"
        } else {
            message += "(launch and handshake alone took more than \(HumanReadable.milliseconds(elapsed)))"
        }
        if let consequence = ExtensionPointRegistry.wallet.point(context.extensionPoint)?.method(named: call.method)?.consequence {
            message += ": \(consequence.summary)"
        }
        return ExtensionCallError(.deadlineExceeded, code: RPCErrorCode.deadlineExceeded, message: message)
    }

    private func sampleFootprint() {
        guard let footprint = footprint.sample() else { return }
        let overLimit = state.withLock { state -> Bool in
            state.lastFootprint = footprint
            for id in Array(state.pending.keys) {
                let previous = state.pending[id]?.peakFootprintBytes ?? 0
                state.pending[id]?.peakFootprintBytes = max(previous, footprint)
            }
            guard footprint > context.memoryLimitBytes, state.memoryKillFootprint == nil else { return false }
            state.memoryKillFootprint = footprint
            return true
        }
        if overLimit {
            context.events.record(HostEvent(kind: "memoryKill", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                            footprintBytes: footprint,
                                            message: "footprint \(footprint) bytes over the \(context.memoryLimitDescription) limit"))
            child.signalGroup(SIGKILL)
        }
    }

    // MARK: Exit

    private func finish(status: TerminationStatus, buffer: UnsafeMutableRawBufferPointer, loop: inout LoopState) {
        // Grandchildren may still hold the pipes; they share the group and die with it.
        child.signalGroup(SIGKILL)
        if loop.rpcOpen { readResponses(buffer, loop: &loop) }
        if loop.stdoutOpen { readOutput(buffer, stream: "stdout", loop: &loop) }
        if loop.stderrOpen { readOutput(buffer, stream: "stderr", loop: &loop) }

        let (pending, exit) = state.withLock { state -> ([PendingCall], ExtensionExit) in
            let cause: ExtensionExit.Cause
            if let footprint = state.memoryKillFootprint {
                cause = .memoryLimit(footprintBytes: footprint)
            } else if loop.sawAllocationFailure {
                cause = .memoryLimit(footprintBytes: state.lastFootprint)
            } else if let reason = state.hostStopReason {
                cause = .stoppedByHost(reason: reason)
            } else {
                cause = .ended
            }
            let exit = ExtensionExit(status: status, cause: cause, executableName: context.executableName, pid: child.pid,
                                     memoryLimitDescription: context.memoryLimitDescription, stderrTail: loop.stderrTail)
            state.exit = exit
            let pending = Array(state.pending.values)
            state.pending.removeAll()
            state.expired.removeAll()
            state.outgoing.removeAll()
            return (pending, exit)
        }
        child.closeDescriptors()
        context.events.record(HostEvent(kind: "exit", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                        milliseconds: (.now - launchedAt).milliseconds,
                                        footprintBytes: exit.isMemoryDeath ? state.withLock { $0.lastFootprint } : nil,
                                        message: exit.description))
        let now = ContinuousClock.now
        for call in pending {
            call.continuation.resume(returning: CallReply(outcome: .failure(Self.terminationError(exit, method: call.method)),
                                                          peakFootprintBytes: call.peakFootprintBytes, sentAt: call.sentAt,
                                                          finishedAt: now))
        }
        reportExit(exit)
    }

    /// Swift's "failed to allocate", C's ENOMEM text, C++'s bad_alloc, Python's MemoryError.
    static func looksLikeAllocationFailure(_ lines: [String]) -> Bool {
        let markers = ["failed to allocate", "cannot allocate memory", "out of memory", "bad_alloc", "memoryerror",
                       "malloc returned null"]
        return lines.contains { line in
            let lowered = line.lowercased()
            return markers.contains { lowered.contains($0) }
        }
    }
}

import Synchronization
import Testing
@testable import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The host loop on a test clock: timers, posted work and descriptors, without waiting on real time.
@Suite struct HostLoopTests {
    /// Runs `body` on the loop's thread and returns its result: once it returns, everything
    /// the loop had to do before it (a jump of the clock, the timers it made due) is done.
    private func onLoop<T: Sendable>(_ loop: HostLoop, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: body()) }
        }
    }

    @Test func timersFireInDeadlineOrderOnlyWhenTheClockPassesThem() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock)
        let fired = Mutex<[Int]>([])
        let start = clock.now()
        // Scheduled out of order; two share a deadline and keep their order.
        loop.schedule(at: start + .seconds(3)) { fired.withLock { $0.append(3) } }
        loop.schedule(at: start + .seconds(1)) { fired.withLock { $0.append(1) } }
        loop.schedule(at: start + .seconds(2)) { fired.withLock { $0.append(2) } }
        loop.schedule(at: start + .seconds(2)) { fired.withLock { $0.append(22) } }
        _ = await onLoop(loop) {}
        #expect(fired.withLock { $0 }.isEmpty, "no timer is due before the clock moves")
        clock.advance(by: .milliseconds(2_500))
        _ = await onLoop(loop) {}
        #expect(fired.withLock { $0 } == [1, 2, 22])
        clock.advance(by: .milliseconds(499))
        _ = await onLoop(loop) {}
        #expect(fired.withLock { $0 } == [1, 2, 22])
        clock.advance(by: .milliseconds(1))
        _ = await onLoop(loop) {}
        #expect(fired.withLock { $0 } == [1, 2, 22, 3])
        await loop.shutdown()
    }

    /// Nothing but the jump wakes the loop here: without it, it would sleep an hour (a minute at
    /// a time) before it looked at the clock again.
    @Test(.timeLimit(.minutes(1)))
    func advancingTheClockWakesASleepingLoop() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock)
        _ = await onLoop(loop) {}
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.schedule(at: clock.now() + .seconds(3_600)) { continuation.resume() }
            clock.advance(by: .seconds(3_600))
        }
        await loop.shutdown()
    }

    @Test func cancelledTimersNeverFire() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock)
        let fired = Mutex<[String]>([])
        let start = clock.now()
        let cancelled = loop.schedule(at: start + .seconds(1)) { fired.withLock { $0.append("cancelled") } }
        // A timer that cancels a later one due at the same wake-up.
        let later = Mutex<HostLoop.Timer?>(nil)
        loop.schedule(at: start + .seconds(2)) {
            fired.withLock { $0.append("canceller") }
            if let timer = later.withLock({ $0 }) { loop.cancel(timer) }
        }
        later.withLock { $0 = loop.schedule(at: start + .seconds(3)) { fired.withLock { $0.append("later") } } }
        loop.schedule(at: start + .seconds(4)) { fired.withLock { $0.append("kept") } }
        #expect(loop.cancel(cancelled))
        #expect(!loop.cancel(cancelled), "a timer is cancelled once")
        clock.advance(by: .seconds(10))
        _ = await onLoop(loop) {}
        #expect(fired.withLock { $0 } == ["canceller", "kept"])
        await loop.shutdown()
    }

    @Test func postedWorkRunsOnTheLoopThreadInOrder() async throws {
        let loop = try HostLoop(clock: TestClock())
        #expect(!loop.inLoop)
        let order = Mutex<[Int]>([])
        let onThread = Atomic<Int>(0)
        for index in 0..<100 {
            loop.execute {
                if loop.inLoop { onThread.add(1, ordering: .relaxed) }
                order.withLock { $0.append(index) }
            }
        }
        let confined = LoopConfined(0, to: loop)
        let total = await onLoop(loop) { () -> Int in
            loop.preconditionInLoop()
            confined.value += 5
            return confined.value
        }
        #expect(total == 5)
        #expect(order.withLock { $0 } == Array(0..<100))
        #expect(onThread.load(ordering: .relaxed) == 100)
        await loop.shutdown()
    }

    @Test func aRegisteredPipesReadinessReachesItsHandler() async throws {
        let loop = try HostLoop(clock: TestClock())
        let (reader, writer) = try SystemCall.pipe(nonBlockingRead: true, nonBlockingWrite: true)
        defer { close(writer) }
        let received = Mutex<[UInt8]>([])
        let onThread = Atomic<Bool>(true)
        let (stream, continuation) = AsyncStream.makeStream(of: UInt8.self)
        try loop.register(reader, for: .readable) { events in
            if !loop.inLoop { onThread.store(false, ordering: .relaxed) }
            guard events.contains(.readable) else { return }
            var byte: UInt8 = 0
            while read(reader, &byte, 1) == 1 {
                received.withLock { $0.append(byte) }
                continuation.yield(byte)
            }
        }
        var iterator = stream.makeAsyncIterator()
        for byte: UInt8 in [7, 8] {
            var value = byte
            #expect(write(writer, &value, 1) == 1)
            #expect(await iterator.next() == byte)
        }
        #expect(received.withLock { $0 } == [7, 8])
        let allOnThread = onThread.load(ordering: .relaxed)
        #expect(allOnThread)
        loop.unregister(reader)
        close(reader)
        await loop.shutdown()
    }

    @Test func unregisterThenCloseIsSafe() async throws {
        let loop = try HostLoop(clock: TestClock())
        let pair = try SystemCall.pipe(nonBlockingRead: true, nonBlockingWrite: true)
        let ends = [pair.read, pair.write]
        let calls = Atomic<Int>(0)
        let (heard, hearing) = AsyncStream.makeStream(of: Void.self)
        // Readable for ever (the peer closed): the level-triggered handler runs each wake-up.
        close(ends[1])
        try loop.register(ends[0], for: .readable) { _ in
            calls.add(1, ordering: .relaxed)
            hearing.yield()
        }
        var heardIterator = heard.makeAsyncIterator()
        _ = await heardIterator.next()
        // Unregistered on the loop, as a handler would, then closed: the number is free again.
        let reader = ends[0]
        _ = await onLoop(loop) { loop.unregister(reader) }
        close(reader)
        #expect(!loop.isRegistered(reader))
        let after = calls.load(ordering: .relaxed)
        // The number comes back for a new pipe, whose handler alone hears of it.
        let againPair = try SystemCall.pipe(nonBlockingRead: true, nonBlockingWrite: true)
        let again = [againPair.read, againPair.write]
        let (newHeard, newHearing) = AsyncStream.makeStream(of: Void.self)
        try loop.register(again[0], for: .readable) { _ in
            var byte: UInt8 = 0
            while read(again[0], &byte, 1) == 1 {}
            newHearing.yield()
        }
        var byte: UInt8 = 1
        #expect(write(again[1], &byte, 1) == 1)
        var newIterator = newHeard.makeAsyncIterator()
        _ = await newIterator.next()
        _ = await onLoop(loop) {}
        #expect(calls.load(ordering: .relaxed) == after, "the old handler ran after unregister")
        loop.unregister(again[0])
        close(again[0])
        close(again[1])
        await loop.shutdown()
    }

    @Test func aTimerScheduledFromAnotherThreadWakesASleepingLoop() async throws {
        let loop = try HostLoop()
        _ = await onLoop(loop) {}
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.schedule(after: .milliseconds(5)) { continuation.resume() }
        }
        await loop.shutdown()
    }

    /// epoll_wait's timeout is whole milliseconds: a loop that rounds a timer 300 µs away up to
    /// one sleeps at least a millisecond. Each timer is armed on the loop's thread, which then
    /// sleeps for it (no wake-up from another thread shortens the wait); the best of twenty
    /// comes in under a millisecond only when the loop sleeps to the nanosecond.
    @Test("a timer 300 µs away fires before a millisecond has passed", .enabled(if: HostLoop.hasPreciseTimers, "no epoll_pwait2"))
    func subMillisecondTimersFireOnTime() async throws {
        let loop = try HostLoop(threadName: "wh-precise-test")
        var delays: [Duration] = []
        for _ in 0..<20 {
            let delay = await withCheckedContinuation { (continuation: CheckedContinuation<Duration, Never>) in
                loop.execute {
                    let armed = ContinuousClock.now
                    loop.schedule(at: armed + .microseconds(300)) { continuation.resume(returning: ContinuousClock.now - armed) }
                }
            }
            delays.append(delay)
        }
        await loop.shutdown()
        #expect(delays.allSatisfy { $0 >= .microseconds(300) }, "a timer fired early: \(delays)")
        #expect(try #require(delays.min()) < .milliseconds(1), "every timer fired a millisecond or more late: \(delays)")
    }
}

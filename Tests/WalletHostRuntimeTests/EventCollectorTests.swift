import Foundation
import Testing
@testable import WalletHostRuntime

/// Waiting for an event instead of polling for it.
@Suite("EventCollector.firstEvent")
struct EventCollectorTests {
    private func stop(_ words: String) -> HostEvent {
        HostEvent(.stop(HostEvent.Stop(reason: .requested(words))), bundleIdentifier: "com.example", pid: 1)
    }

    @Test("an event already recorded is found at once, from the given index on")
    func alreadyRecorded() async {
        let collector = EventCollector()
        collector.record(stop("first"))
        collector.record(stop("second"))
        let found = await collector.firstEvent(within: .seconds(5)) { $0.kind == .stop }
        #expect(found?.payload == stop("first").payload)
        let later = await collector.firstEvent(from: 1, within: .seconds(5)) { $0.kind == .stop }
        #expect(later?.message == "stopping: second")
    }

    @Test("a waiter is resumed by the first matching event recorded later, not by others")
    func recordedLater() async {
        let collector = EventCollector()
        async let found = collector.firstEvent(within: .seconds(10)) { $0.payload == .stop(HostEvent.Stop(reason: .idle)) }
        // Lets the waiter register first. Should it start late, it finds the event among those
        // recorded and the expectations below hold still: the sleep chooses the path, not the verdict.
        try? await Task.sleep(for: .milliseconds(20))
        collector.record(stop("not this one"))
        collector.record(HostEvent(.stop(HostEvent.Stop(reason: .idle))))
        #expect(await found?.kind == .stop)
        #expect(await found?.message == "stopping: idle")
    }

    @Test("no match within the timeout gives nil, including a zero timeout")
    func timeout() async {
        let collector = EventCollector()
        collector.record(stop("other"))
        let started = ContinuousClock.now
        #expect(await collector.firstEvent(within: .milliseconds(50)) { $0.kind == .exit } == nil)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(await collector.firstEvent(within: .zero) { $0.kind == .exit } == nil)
    }

    @Test("a cancelled waiter returns nil at once")
    func cancellation() async {
        let collector = EventCollector()
        let waiter = Task { await collector.firstEvent(within: .seconds(60)) { $0.kind == .exit } }
        // Lets the waiter start waiting; one cancelled before it starts returns nil at once as well.
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        #expect(await waiter.value == nil)
    }

    @Test("events are forwarded to the next sink")
    func forwarding() {
        let inner = EventCollector()
        let outer = EventCollector(forwardingTo: inner)
        outer.record(stop("x"))
        outer.recordOutput(bundleIdentifier: "b", pid: 1, stream: "stderr", line: "hello")
        #expect(inner.events.count == 1)
        #expect(inner.outputLines == ["stderr: hello"])
        #expect(outer.count == 1)
    }
}

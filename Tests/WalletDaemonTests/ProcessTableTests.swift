import Foundation
import Testing
@testable import WalletDaemon
import WalletHostRuntime

/// The `ps` table kept from events alone.
@Suite struct ProcessTableTests {
    let bundle = "com.example.issuer.Ext"

    func event(_ payload: HostEvent.Payload, pid: Int32) -> HostEvent {
        HostEvent(payload, bundleIdentifier: bundle, pid: pid)
    }

    @Test func countsCallsMissesAndTheLastErrorAcrossProcesses() {
        var table = ProcessTable()
        table.apply(event(.spawn(.init(executablePath: "/x", milliseconds: 1)), pid: 10))
        table.apply(event(.call(.init(method: "initialize", requestID: "1")), pid: 10))
        table.apply(event(.result(.init(method: "initialize", requestID: "1", milliseconds: 5, footprintBytes: 100)), pid: 10))
        table.apply(event(.call(.init(method: "status", requestID: "2")), pid: 10))
        #expect(table.rows[bundle]?.callsInFlight == 1)
        table.apply(event(.deadlineMiss(.init(method: "status", requestID: "2", milliseconds: 101, deadlineMilliseconds: 100, sent: true)), pid: 10))
        let crashed = table.apply(event(.exit(.init(status: .signaled(9), cause: .ended, milliseconds: 200, footprintBytes: 4096,
                                                    description: "X[10] was killed by SIGKILL")), pid: 10))
        #expect(crashed)
        let row = table.rows[bundle]
        #expect(row?.calls == 1, "the handshake is not a call")
        #expect(row?.deadlineMisses == 1)
        #expect(row?.callsInFlight == 0)
        #expect(row?.pid == nil)
        #expect(row?.crashes == 1)
        #expect(row?.peakFootprintBytes == 4096)
        #expect(row?.lastError == "X[10] was killed by SIGKILL")
    }

    @Test func aRequestedOrIdleStopIsNoCrashAndASecondProcessKeepsItsOwnStart() {
        var table = ProcessTable()
        table.apply(event(.spawn(.init(executablePath: "/x", milliseconds: 1)), pid: 10))
        table.apply(event(.spawn(.init(executablePath: "/x", milliseconds: 1)), pid: 11))
        let stopped = table.apply(event(.exit(.init(status: .exited(0), cause: .stoppedByHost(reason: .idle), milliseconds: 9,
                                                    footprintBytes: nil, description: "idle")), pid: 11))
        #expect(!stopped)
        #expect(table.rows[bundle]?.pid == 10, "the other process still runs")
        #expect(table.rows[bundle]?.startedAt != nil)
        #expect(table.rows[bundle]?.crashes == 0)
    }
}

import Foundation
import Testing
import Wallet
import WalletTestSupport

@Suite("Simulated device state")
struct SimulatedDeviceTests {
    private func freshDevice() -> SimulatedDevice {
        SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-device")))
    }

    @Test("a pass added to the iPhone is listed with every field and survives a re-read")
    func addAndList() throws {
        let device = freshDevice()
        try device.addPass(PassRecord(primaryAccountIdentifier: "acct-1", primaryAccountNumberSuffix: "1234", device: .iphone,
                                      issuer: "com.example.issuer"))
        let passes = try SimulatedDevice(state: device.state).passes()
        #expect(passes.count == 1)
        #expect(passes.first?.deviceName == "iPhone")
        #expect(passes.first?.isRemotePass == false)
        #expect(passes.first?.issuer == "com.example.issuer")
    }

    @Test("the same account on the watch is a separate pass; removal is per device")
    func perDevice() throws {
        let device = freshDevice()
        try device.addPass(PassRecord(primaryAccountIdentifier: "acct-1", primaryAccountNumberSuffix: "1234", device: .iphone, issuer: "x"))
        try device.addPass(PassRecord(primaryAccountIdentifier: "acct-1", primaryAccountNumberSuffix: "1234", device: .watch, issuer: "x"))
        #expect(try device.passes().count == 2)
        #expect(try device.removePass(primaryAccountIdentifier: "acct-1", device: .watch) == 1)
        #expect(try device.passes().map(\.device) == [.iphone])
    }

    @Test("a corrupt passes.json is an error naming the file, and the file is left as it was")
    func corruptFile() throws {
        let device = freshDevice()
        try FileManager.default.createDirectory(at: device.state.url, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: device.state.passesURL)
        #expect(throws: StateError.self) { try device.passes() }
        do {
            try device.addPass(PassRecord(primaryAccountIdentifier: "a", primaryAccountNumberSuffix: "1", device: .iphone, issuer: "x"))
            Issue.record("adding to a corrupt library must fail")
        } catch let error as StateError {
            #expect(error.description.contains("passes.json"))
        }
        #expect(try Data(contentsOf: device.state.passesURL) == Data("{not json".utf8))
    }

    @Test("eight threads adding at once lose nothing")
    func concurrentWriters() async throws {
        let device = freshDevice()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<10 {
                        try? device.addPass(PassRecord(primaryAccountIdentifier: "acct-\(writer)-\(index)",
                                                       primaryAccountNumberSuffix: "\(index)", device: .iphone, issuer: "x"))
                    }
                }
            }
        }
        #expect(try device.passes().count == 80)
    }
}

import Foundation
import Synchronization
import Testing
@testable import Wallet
import WalletTestSupport

/// Host services read state files through a cache that must never serve a stale file.
struct StateFileCacheTests {
    /// Counts the reads the cache could not spare.
    private final class Reads: Sendable {
        let count = Atomic<Int>(0)
        func read(_ url: URL) throws -> String {
            count.add(1, ordering: .relaxed)
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    @Test("an unchanged file is decoded once; a replaced, rewritten or removed file is read again")
    func staysCurrent() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-cache")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("passes.json")
        let cache = StateFileCache()
        let reads = Reads()
        try Data("one".utf8).write(to: file, options: .atomic)
        #expect(try cache.value(at: file) { try reads.read(file) } == "one")
        #expect(try cache.value(at: file) { try reads.read(file) } == "one")
        #expect(reads.count.load(ordering: .relaxed) == 1)

        // Replaced by rename, as StateDirectory writes: a new inode.
        try Data("two".utf8).write(to: file, options: .atomic)
        #expect(try cache.value(at: file) { try reads.read(file) } == "two")
        // Rewritten in place with the same length: the change time moves.
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("TWO".utf8))
        try handle.close()
        #expect(try cache.value(at: file) { try reads.read(file) } == "TWO")
        #expect(reads.count.load(ordering: .relaxed) == 3)

        // Gone: never served from the cache, the read's own answer (or error) comes through.
        try FileManager.default.removeItem(at: file)
        #expect(throws: (any Error).self) { try cache.value(at: file) { try reads.read(file) } }
    }

    @Test("the device's pass library sees a pass added by another process's write")
    func deviceReadsThroughTheCache() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-cache-device")
        defer { directory.remove() }
        let device = SimulatedDevice(state: StateDirectory(url: directory.url))
        #expect(try device.passes().isEmpty)
        try device.addPass(PassRecord(primaryAccountIdentifier: "A", primaryAccountNumberSuffix: "1234", device: .iphone,
                                      issuer: "com.example.bank"))
        #expect(try device.passes().map(\.primaryAccountIdentifier) == ["A"])
        try device.updateSettings { $0.watchPaired = false }
        #expect(try device.settings().watchPaired == false)
        try device.updateSettings { $0.watchPaired = true }
        #expect(try device.settings().watchPaired == true)
    }
}

import Testing
@testable import WalletHostRuntime

@Suite("Memory usage: what a memory kill reports")
struct MemoryUsageTests {
    @Test("the report names the total, the largest processes first, sums up the rest, and the shared memory")
    func descriptionNamesTheProcesses() {
        let processes = (1...11).map { MemoryUsage.Process(name: $0 == 1 ? "hostile" : "python3", pid: Int32($0), footprintBytes: $0 << 20) }
        let usage = MemoryUsage(totalBytes: 70 << 20, processes: processes, sharedBytes: 4 << 20, accounting: .controlGroup)
        #expect(usage.processes.first?.pid == 11)
        #expect(usage.description == "70 MB across 11 processes: python3[11] 11 MB, python3[10] 10 MB, python3[9] 9 MB, "
            + "python3[8] 8 MB, python3[7] 7 MB, python3[6] 6 MB, python3[5] 5 MB, python3[4] 4 MB, (3 more, 6 MB), "
            + "shared memory and /tmp 4 MB")
    }

    @Test("one process is one process")
    func oneProcess() {
        let usage = MemoryUsage(totalBytes: 57 << 20, processes: [MemoryUsage.Process(name: "WNonUIExt", pid: 2, footprintBytes: 57 << 20)],
                                sharedBytes: 0, accounting: .processes)
        #expect(usage.description == "57 MB across 1 process: WNonUIExt[2] 57 MB, shared memory and /tmp 0 MB")
    }

    @Test("memory.stat's rss and shmem lines are read, not the cache or the total_ ones")
    func memoryStatParsing() {
        let text = "cache 4435968\nrss 1847296\nrss_huge 0\nshmem 8192\nmapped_file 0\ntotal_rss 999\ntotal_shmem 999\n"
        let parsed = Array(text.utf8).withUnsafeBufferPointer { ExtensionControlGroup.residentAndShared(in: $0) }
        #expect(parsed?.resident == 1_847_296)
        #expect(parsed?.shared == 8192)
        let missing = Array("cache 1\n".utf8).withUnsafeBufferPointer { ExtensionControlGroup.residentAndShared(in: $0) }
        #expect(missing == nil)
    }
}

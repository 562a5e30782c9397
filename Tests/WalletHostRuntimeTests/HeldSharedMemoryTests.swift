import Testing
@testable import WalletHostRuntime

/// How the SysV segments of an extension's IPC namespace are counted without control groups.
struct HeldSharedMemoryTests {
    @Test("the SysV table's rss and swap columns are summed, found by name")
    func segmentTableIsParsed() {
        let table = """
                   key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap
                     0          3   600             209715200   12    12      0  1000  1000  1000  1000 1700000000 1700000001 1700000000             209715200                     0
                     0          4   600               1048576   12    12      1  1000  1000  1000  1000 1700000000          0 1700000000                  4096                  8192
            """
        #expect(HeldSharedMemory.columnsSum(in: table, columns: ["rss", "swap"]) == 209_715_200 + 4096 + 8192)
        let queues = """
                   key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime
                     0          0   600       16384          2    12     0  1000  1000  1000  1000 1700000000          0 1700000000
                     0          1   600        8192          1    12     0  1000  1000  1000  1000 1700000000          0 1700000000
            """
        #expect(HeldSharedMemory.columnsSum(in: queues, columns: ["cbytes"]) == 16384 + 8192)
    }
}

import Foundation
import Testing
import WalletTestSupport
@testable import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The walk a host without container images keeps (issue 31, break 2): it used to stop at 64
/// directories, see no file kept open after unlinking, and charge nothing for an empty file.
@Suite("Container quota: the walk's holes")
struct ContainerQuotaWalkTests {
    static func nest(_ depth: Int, in root: URL) throws -> URL {
        var path = root
        for _ in 0..<depth { path.appendPathComponent("d") }
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a file 100 directories down is counted; a tree deeper than 256 counts as full")
    func deepTrees() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-walk")
        defer { directory.remove() }
        let deep = try Self.nest(100, in: directory.url)
        try Data(count: 4 << 20).write(to: deep.appendingPathComponent("hidden"))
        let used = ContainerQuotaWatch.bytesUsed(under: directory.url.path)
        #expect(used >= 4 << 20, "\(used)")
        #expect(used < 16 << 20, "\(used)")
        let deeper = try TemporaryDirectory(prefix: "wallet-host-walk")
        defer { deeper.remove() }
        _ = try Self.nest(ContainerQuotaWatch.deepestDirectory + 10, in: deeper.url)
        #expect(ContainerQuotaWatch.bytesUsed(under: deeper.url.path) > 1 << 40)
    }

    @Test("every file costs at least 16 KiB: 1,000 empty files are 16 MB")
    func emptyFilesCost() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-walk")
        defer { directory.remove() }
        for index in 0..<1000 { _ = FileManager.default.createFile(atPath: directory.url.path + "/\(index)", contents: nil) }
        #expect(ContainerQuotaWatch.bytesUsed(under: directory.url.path) >= 1000 * ContainerVolume.bytesPerInode)
    }

    @Test("a file kept open after unlinking is counted for the processes that hold it")
    func unlinkedFiles() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-walk")
        defer { directory.remove() }
        let path = directory.url.path + "/gone"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        unlink(path)
        let block = [UInt8](repeating: 1, count: 1 << 20)
        for _ in 0..<4 { _ = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        var status = stat()
        try #require(fstat(fd, &status) == 0)
        #expect(ContainerQuotaWatch.bytesUsed(under: directory.url.path) < 1 << 20)
        let held = ContainerQuotaWatch.unlinkedBytes(held: [getpid()], on: [status.st_dev])
        #expect(held >= 4 << 20, "\(held)")
    }
}

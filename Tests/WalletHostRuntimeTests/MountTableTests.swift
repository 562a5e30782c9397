import Foundation
import Testing
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The mount table as `wallet-host doctor` reads it: its App Group images, which of them a
/// process that is gone left behind (from the PID in its throwaway directory's name), and when
/// the table is large enough to slow every sandboxed launch.
@Suite("Mount table")
struct MountTableTests {
    static let temporary = "/tmp"

    /// One mountinfo line mounting a `type` file system at `point`.
    static func line(_ id: Int, _ point: String, _ type: String) -> String {
        "\(id) 1 7:\(id) / \(point) rw,relatime shared:\(id) - \(type) /dev/loop\(id) rw"
    }

    static let table = MountTable(mountInfo: [
        line(1, "/", "ext4"),
        line(2, "/proc", "proc"),
        line(3, "/tmp/wallet-host-tests-4242-6F1C2E3A-1B2C-4D5E-8F90-A1B2C3D4E5F6/state/AppGroups/group.a", "ext4"),
        line(4, "/tmp/wallet-host-conform-777-0A1B2C3D/AppGroups/group.b", "ext4"),
        line(5, "/tmp/wallet-host-bundles-999/AppGroups/group.c", "ext4"),
        line(6, "/home/me/state/AppGroups/group.d", "ext4"),
        line(7, "/tmp/wallet-host-conform-777-0A1B2C3D/AppGroups/not-an-image", "tmpfs"),
        line(8, "/tmp/wallet-host-tests-6F1C2E3A-1B2C-4D5E-8F90-A1B2C3D4E5F6/AppGroups/group.e", "ext4"),
        line(9, "/tmp/with\\040space/AppGroups/group.f", "ext4"),
    ].joined(separator: "\n"))

    @Test func readsEveryMountAndItsImages() {
        #expect(Self.table.mounts.count == 9)
        #expect(Self.table.mounts[1] == MountTable.Mount(point: "/proc", type: "proc"))
        #expect(Self.table.appGroupImages.count == 6)
        #expect(Self.table.appGroupImages.contains("/tmp/with space/AppGroups/group.f"))
        #expect(!Self.table.appGroupImages.contains { $0.hasSuffix("not-an-image") })
    }

    @Test func theOwnerIsThePIDInTheThrowawayDirectorysName() {
        let owner = { MountTable.owner(of: $0, temporaryDirectory: Self.temporary) }
        #expect(owner("/tmp/wallet-host-tests-4242-6F1C2E3A-1B2C-4D5E-8F90-A1B2C3D4E5F6/state/AppGroups/g") == 4242)
        #expect(owner("/tmp/wallet-host-conform-777-0A1B2C3D/AppGroups/g") == 777)
        // Eight digits are the UUID's first field, never a PID.
        #expect(owner("/tmp/wallet-host-stress-31-12345678/AppGroups/g") == 31)
        #expect(owner("/tmp/wallet-host-bundles-999/AppGroups/g") == 999)
        // No PID in the name (the old naming), another prefix, elsewhere than the temporary directory: nobody's.
        #expect(owner("/tmp/wallet-host-tests-6F1C2E3A-1B2C-4D5E-8F90-A1B2C3D4E5F6/AppGroups/g") == nil)
        #expect(owner("/tmp/other-4242-6F1C2E3A-1B2C-4D5E-8F90-A1B2C3D4E5F6/AppGroups/g") == nil)
        #expect(owner("/home/me/wallet-host-tests-4242/AppGroups/g") == nil)
        #expect(owner("/tmp/wallet-host-4242/AppGroups/g") == nil)
    }

    @Test func leftoversAreTheImagesOfProcessesThatAreGone() {
        let leftovers = Self.table.leftoverImages(temporaryDirectories: [Self.temporary], isRunning: { $0 == 999 })
        #expect(leftovers == ["/tmp/wallet-host-tests-4242-6F1C2E3A-1B2C-4D5E-8F90-A1B2C3D4E5F6/state/AppGroups/group.a",
                              "/tmp/wallet-host-conform-777-0A1B2C3D/AppGroups/group.b"])
        #expect(Self.table.leftoverImages(temporaryDirectories: [Self.temporary], isRunning: { _ in true }).isEmpty)
        #expect(MountTable.isRunning(getpid()))
    }

    @Test func aLargeTableOrALeftoverIsAWarningWithItsCostAndFix() {
        let small = MountTable.Assessment(Self.table, leftovers: [], copyMilliseconds: 0.25)
        #expect(!small.isLarge)
        #expect(small.fix == nil)
        #expect(small.detail.hasPrefix("9 mounts, 6 of them App Group images (0 left mounted"), "\(small.detail)")
        #expect(small.detail.contains("takes 0.25 ms here"), "\(small.detail)")

        let leftover = MountTable.Assessment(Self.table, leftovers: ["/tmp/wallet-host-x-1/AppGroups/g"], copyMilliseconds: nil)
        #expect(leftover.isLarge)
        #expect(leftover.fix?.contains("umount -l '/tmp/wallet-host-x-1/AppGroups/g'") == true, "\(leftover.fix ?? "")")

        let lines = (1...MountTable.Assessment.largeCount).map { Self.line($0, "/mnt/m\($0)", "tmpfs") }
        let large = MountTable.Assessment(MountTable(mountInfo: lines.joined(separator: "\n")), leftovers: [], copyMilliseconds: 40)
        #expect(large.isLarge)
        #expect(large.detail.hasPrefix("\(MountTable.Assessment.largeCount) mounts"))
        #expect(large.fix?.contains("findmnt") == true)
    }
}

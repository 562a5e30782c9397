import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An App Group container on a file system of its own, so that the kernel bounds what it holds
/// whatever the extension does: a loop-mounted ext4 image (`<state>/AppGroups/.images/<group>.ext4`)
/// sized by the container quota, with an inode count of its own, mounted at the container's path.
///
/// A walk of the container (``ContainerQuotaWatch``) can be walked around: files below the
/// depth it stops at, files kept open after their last name is gone, directories it may not
/// enter, empty files that cost no block but an inode. On its own file system every one of them
/// takes the image's blocks or inodes, and a write past them fails (ENOSPC).
///
/// The image is made (mkfs.ext4) and mounted once, the first time a launch needs the container,
/// and stays mounted at the container's path (host, daemon and the next `wallet-host call` see
/// the same files; the container is persistent state); later launches find it mounted and pay
/// two `stat`s. The loop device lets go of the image when it is unmounted (autoclear).
///
/// Only a root host can: it needs `/dev/loop-control`, `mkfs.ext4` (e2fsprogs) and `mount`.
/// Elsewhere the container stays a directory and the quota a walk (``kernelEnforcement``).
public enum ContainerVolume {
    /// Why a container could not be put on its image.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Whether this host puts containers on images, and if not, why.
    public enum Enforcement: Sendable, Equatable {
        /// The kernel bounds each container (its own ext4 image).
        case kernel
        /// The quota is a walk of the container; the reason the kernel cannot bound it.
        case walk(reason: String)
    }

    /// The quota's inodes: one for every 16 KiB of it (ext4's default ratio), at least 1,024.
    public static let bytesPerInode = 16 << 10
    public static let minimumInodes = 1024
    /// The image's journal (the smallest ext4 takes), outside the space files get.
    static let journalBytes = 4 << 20
    /// The directory in the App Groups directory that holds the images (no group's name: a
    /// group identifier starts with `group.`).
    public static let imagesDirectoryName = ".images"

    /// The most files and directories a container with `quotaBytes` holds.
    public static func inodes(forQuota quotaBytes: Int) -> Int {
        max(minimumInodes, quotaBytes / bytesPerInode)
    }

    /// The image's size for `quotaBytes`: the quota, the journal, the inode table (256 bytes an
    /// inode) and a MiB of group descriptors and bitmaps. Files get about the quota and a MiB
    /// (measured: 8 MiB gives 9.1 MiB, 1 GiB gives 1,025 MiB); the watch stops the extension
    /// past the quota itself.
    public static func imageBytes(forQuota quotaBytes: Int) -> Int {
        let bytes = quotaBytes + journalBytes + inodes(forQuota: quotaBytes) * 256 + (1 << 20)
        return (bytes + (1 << 20) - 1) & ~((1 << 20) - 1)
    }

    /// `mkfs.ext4`, where e2fsprogs installs it.
    static let mkfsCandidates = ["/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4", "/usr/bin/mkfs.ext4"]

    static var mkfsPath: String? { mkfsCandidates.first { access($0, X_OK) == 0 } }

    /// Whether containers go on images here: root, loop devices and mkfs.ext4.
    public static var kernelEnforcement: Enforcement {
        if geteuid() != 0 {
            return .walk(reason: "the host is not root (loop devices and mounts need root)")
        }
        if !inInitialUserNamespace {
            return .walk(reason: "the host runs in a user namespace (its root cannot mount a loop device)")
        }
        if access("/dev/loop-control", R_OK | W_OK) != 0 {
            return .walk(reason: "no loop devices (/dev/loop-control: \(String(cString: strerror(errno))))")
        }
        if mkfsPath == nil {
            return .walk(reason: "no mkfs.ext4 (install e2fsprogs)")
        }
        return .kernel
    }

    /// Whether this process's user namespace is the machine's own (its uid map the identity of
    /// every id): root in any other may not mount a block device.
    static var inInitialUserNamespace: Bool {
        guard let map = try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8) else { return true }
        let fields = map.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        return fields == ["0", "0", "4294967295"]
    }

    /// Unmounts the containers under `directory` that this process put on their images (a
    /// command's throwaway state directory, which nothing uses after it): their loop devices
    /// let go of the images.
    public static func release(under directory: String) {
        let prefix = URL(fileURLWithPath: directory).standardizedFileURL.path + "/"
        let mounted = onImage.withLock { onImage in
            let mine = onImage.keys.filter { URL(fileURLWithPath: $0).standardizedFileURL.path.hasPrefix(prefix) }
            mine.forEach { onImage[$0] = nil }
            return mine
        }
        for container in mounted { _ = umount2(container, Int32(MNT_DETACH)) }
    }

    /// ``kernelEnforcement`` as it was first asked in this process: what launches go by (the
    /// answer does not change while the host runs, and each launch would ask it again).
    static let enforcement = kernelEnforcement

    /// Containers found on their image in this process: path -> the device it is mounted from.
    private static let onImage = Mutex<[String: dev_t]>([:])

    /// Whether `container`, open as `fd`, is on the image ``prepare(_:quotaBytes:)`` found or put
    /// it on in this process (and still is): what it holds is then its file system's count.
    static func isOnImage(_ container: String, fd: Int32) -> Bool {
        guard let device = onImage.withLock({ $0[container] }) else { return false }
        var status = stat()
        return fstat(fd, &status) == 0 && status.st_dev == device && status.st_ino == 2
    }

    /// Whether a file system is mounted at `container` (it lies on another device than its parent).
    public static func isMounted(_ container: String) -> Bool {
        var parent = stat(), status = stat()
        return lstat((container as NSString).deletingLastPathComponent, &parent) == 0 && lstat(container, &status) == 0
            && status.st_dev != parent.st_dev
    }

    /// Puts each of `containers` on its image, making and mounting it where needed. Does nothing
    /// without a quota or where the host cannot (``kernelEnforcement``).
    /// - Returns: whether the containers are on images (the kernel bounds them).
    /// - Throws: ``Failure`` naming the container and what failed.
    @discardableResult
    public static func prepare(_ containers: some Sequence<String>, quotaBytes: Int?) throws(Failure) -> Bool {
        guard let quotaBytes else { return false }
        let list = Array(containers)
        guard !list.isEmpty, enforcement == .kernel else { return false }
        for container in list { try mount(container, quotaBytes: quotaBytes) }
        return true
    }

    /// The container's path, opened: its parent resolved here, the last component beneath it
    /// without following any link.
    private struct Opened {
        var parent: Int32
        var container: Int32
        var parentPath: String
        var name: String

        func close() {
            SystemCall.close(container)
            SystemCall.close(parent)
        }
    }

    private static func open(_ container: String) throws(Failure) -> Opened {
        let parentPath = (container as NSString).deletingLastPathComponent
        let name = (container as NSString).lastPathComponent
        guard let resolved = realpath(parentPath, nil) else { throw failure(container, "cannot resolve \(parentPath)", errno) }
        let anchor = String(cString: resolved)
        free(resolved)
        let parent = Glibc.open(anchor, WH_O_PATH | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { throw failure(container, "cannot open \(anchor)", errno) }
        var fd = wh_open_beneath(parent, name, WH_O_PATH | O_DIRECTORY | O_CLOEXEC, 0)
        if fd < 0, errno == ENOENT {
            // Made as the host makes containers (no link followed; the sandbox's user's).
            do { try ContainerDirectory.ensure(container) } catch {
                SystemCall.close(parent)
                throw Failure(description: error.description)
            }
            fd = wh_open_beneath(parent, name, WH_O_PATH | O_DIRECTORY | O_CLOEXEC, 0)
        }
        guard fd >= 0 else {
            let code = errno
            SystemCall.close(parent)
            throw Failure(description: ContainerDirectory.Refusal(path: container, errno: code).description)
        }
        return Opened(parent: parent, container: fd, parentPath: anchor, name: name)
    }

    /// The device the container's path shows when something is mounted there; nil when it is
    /// a plain directory of its parent's file system.
    private static func mountedDevice(_ opened: Opened) -> dev_t? {
        var parent = stat(), container = stat()
        guard fstat(opened.parent, &parent) == 0, fstat(opened.container, &container) == 0 else { return nil }
        return container.st_dev == parent.st_dev ? nil : container.st_dev
    }

    private static func mount(_ container: String, quotaBytes: Int) throws(Failure) {
        var opened = try open(container)
        defer { opened.close() }
        let known = onImage.withLock { $0[container] }
        let device = mountedDevice(opened)
        if let device, device == known { return }

        let images = try imagesDirectory(opened, container: container)
        defer { SystemCall.close(images) }
        let imageName = opened.name + ".ext4"
        let imagePath = opened.parentPath + "/" + imagesDirectoryName + "/" + imageName
        // One host at a time makes and mounts images (a daemon and a `wallet-host call`, say). The
        // lock is the directory's: the image's own open file goes to the loop device, which keeps
        // it (and any lock on it) until it lets go of the image.
        while flock(images, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(container, "cannot lock \(opened.parentPath)/\(imagesDirectoryName)", errno) }
        }
        let image = wh_open_beneath(images, imageName, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard image >= 0 else { throw failure(container, "cannot open its image \(imagePath)", errno) }
        defer { SystemCall.close(image) }
        // Looked up anew under the lock: another host may have mounted it since the first look.
        SystemCall.close(opened.container)
        opened.container = wh_open_beneath(opened.parent, opened.name, WH_O_PATH | O_DIRECTORY | O_CLOEXEC, 0)
        guard opened.container >= 0 else {
            throw Failure(description: ContainerDirectory.Refusal(path: container, errno: errno).description)
        }
        if let device = mountedDevice(opened) {
            guard wh_loop_backs(major(device), minor(device), image) == 1 else {
                throw Failure(description: "the App Group container \(container) has a file system mounted on it "
                              + "that is not its image \(imagePath): refused")
            }
            onImage.withLock { $0[container] = device }
            return
        }
        var status = stat()
        guard fstat(image, &status) == 0 else { throw failure(container, "cannot read its image \(imagePath)", errno) }
        let created = status.st_size == 0
        if created { try makeFileSystem(image, path: imagePath, container: container, quotaBytes: quotaBytes) }

        // An image still on a loop device (unmounted lazily, and still busy) would be two file
        // systems on one image: refused until the device lets go of it.
        if let device = loopDevice(backing: imagePath) {
            throw Failure(description: "the image \(imagePath) of the App Group container \(container) is still attached to "
                          + "\(device) though not mounted there (unmounted while busy?): refused until it is released")
        }
        var number: Int32 = -1
        let loop = wh_loop_attach(image, &number)
        guard loop >= 0 else { throw failure(container, "cannot attach its image \(imagePath) to a loop device", errno) }
        defer { SystemCall.close(loop) }
        guard wh_mount_ext4("/dev/loop\(number)", opened.container) == 0 else {
            throw failure(container, "cannot mount its image \(imagePath) (/dev/loop\(number))", errno)
        }
        // The mounted root, opened anew.
        SystemCall.close(opened.container)
        opened.container = wh_open_beneath(opened.parent, opened.name, WH_O_PATH | O_DIRECTORY | O_CLOEXEC, 0)
        guard opened.container >= 0, let mounted = mountedDevice(opened) else {
            throw failure(container, "cannot open it on its image", errno)
        }
        if created {
            // mkfs's lost+found is nothing an App Group container holds (e2fsck makes it again if ever needed).
            let root = wh_open_beneath(opened.parent, opened.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
            if root >= 0 {
                _ = unlinkat(root, "lost+found", AT_REMOVEDIR)
                SystemCall.close(root)
            }
        }
        onImage.withLock { $0[container] = mounted }
    }

    /// The loop device (`/dev/loopN`) whose backing file is `imagePath`, if any.
    public static func loopDevice(backing imagePath: String) -> String? {
        guard let devices = try? FileManager.default.contentsOfDirectory(atPath: "/sys/block") else { return nil }
        for device in devices where device.hasPrefix("loop") {
            guard let backing = try? String(contentsOfFile: "/sys/block/\(device)/loop/backing_file", encoding: .utf8) else { continue }
            if backing.trimmingCharacters(in: .newlines) == imagePath { return "/dev/" + device }
        }
        return nil
    }

    /// `<parent>/.images`, the host's alone (0700), made where missing.
    private static func imagesDirectory(_ opened: Opened, container: String) throws(Failure) -> Int32 {
        if mkdirat(opened.parent, imagesDirectoryName, 0o700) != 0, errno != EEXIST {
            throw failure(container, "cannot make \(opened.parentPath)/\(imagesDirectoryName)", errno)
        }
        let fd = wh_open_beneath(opened.parent, imagesDirectoryName, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw failure(container, "cannot open \(opened.parentPath)/\(imagesDirectoryName)", errno) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o077 == 0 else {
            SystemCall.close(fd)
            throw Failure(description: "\(opened.parentPath)/\(imagesDirectoryName) is not the host's own directory (mode 0700): refused")
        }
        return fd
    }

    /// mkfs.ext4 on the new (empty) image: sized and with inodes by the quota, no blocks kept
    /// for root, its root directory the sandbox's user's, and whatever the container already
    /// held (a host before images, or without a quota) copied in.
    private static func makeFileSystem(_ image: Int32, path: String, container: String, quotaBytes: Int) throws(Failure) {
        guard let mkfs = mkfsPath else { throw Failure(description: "cannot make \(path): no mkfs.ext4 (install e2fsprogs)") }
        let bytes = imageBytes(forQuota: quotaBytes)
        guard ftruncate(image, off_t(bytes)) == 0 else { throw failure(container, "cannot size its image \(path)", errno) }
        let owner = SandboxPlan.runsAsUnprivilegedUser ? SandboxPlan.unprivilegedID : geteuid()
        var arguments = ["-q", "-F", "-t", "ext4", "-b", "4096", "-m", "0", "-N", String(inodes(forQuota: quotaBytes)),
                         "-J", "size=\(journalBytes >> 20)", "-E", "root_owner=\(owner):\(owner),nodiscard", "-L", "wallet-appgroup"]
        if let held = try? FileManager.default.contentsOfDirectory(atPath: container), !held.isEmpty {
            arguments += ["-d", container]
        }
        arguments += [path, "\(bytes / 1024)k"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: mkfs)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            _ = ftruncate(image, 0)
            throw Failure(description: "cannot make the file system of \(container) (\(mkfs)): \(error)")
        }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            // Empty again, so that the next launch tries anew rather than mounting half a file system.
            _ = ftruncate(image, 0)
            let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "cannot make the file system of the App Group container \(container) "
                          + "(\(mkfs) \(arguments.joined(separator: " "))): \(text.isEmpty ? "exit \(process.terminationStatus)" : text)")
        }
    }

    /// The parts of a `dev_t` as glibc encodes it (`gnu_dev_major`, `gnu_dev_minor`).
    static func major(_ device: dev_t) -> UInt32 {
        UInt32(truncatingIfNeeded: ((UInt64(device) >> 8) & 0xfff) | ((UInt64(device) >> 32) & ~0xfff))
    }

    static func minor(_ device: dev_t) -> UInt32 {
        UInt32(truncatingIfNeeded: (UInt64(device) & 0xff) | ((UInt64(device) >> 12) & ~0xff))
    }

    private static func failure(_ container: String, _ what: String, _ code: Int32) -> Failure {
        Failure(description: "App Group container \(container): \(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}

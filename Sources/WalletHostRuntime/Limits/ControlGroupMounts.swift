/// Where each cgroup v1 controller's hierarchy is mounted, and this process's group in it:
/// `/proc/self/mountinfo` and `/proc/self/cgroup` read and parsed once, in bytes.
///
/// Parsed per controller with `components(separatedBy:)`, a mountinfo of 300 lines (a machine
/// with many loop mounts) cost a fresh host about 1 ms a controller, three times per launch's
/// first use of control groups.
struct ControlGroupMounts {
    struct Mount {
        /// The hierarchy's root as the mount shows it (`/` unless the mount is of a subgroup).
        var root: String
        var point: String
    }

    /// By controller name (`memory`, `pids`, `cpu`): the first mount that has it.
    private(set) var mounts: [String: Mount] = [:]
    /// By controller name: this process's group's path in that hierarchy.
    private(set) var groups: [String: String] = [:]

    /// Parses the two files' texts.
    init(mountInfo: String, groups groupsText: String) {
        let space = UInt8(ascii: " ")
        for line in Array(mountInfo.utf8).split(separator: UInt8(ascii: "\n")) {
            // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPEROPTIONS
            guard let separator = Self.typeSeparator(in: line) else { continue }
            let after = line[separator.upperBound...].split(separator: space)
            guard after.count >= 3, after[0].elementsEqual("cgroup".utf8) else { continue }
            let before = line[..<separator.lowerBound].split(separator: space)
            guard before.count >= 5 else { continue }
            let mount = Mount(root: Self.unescape(before[3]), point: Self.unescape(before[4]))
            for option in after[2].split(separator: UInt8(ascii: ",")) {
                let controller = String(decoding: option, as: UTF8.self)
                if mounts[controller] == nil { mounts[controller] = mount }
            }
        }
        // ID:CONTROLLERS:PATH
        for line in groupsText.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            for controller in fields[1].split(separator: ",") where groups[String(controller)] == nil {
                groups[String(controller)] = String(fields[2])
            }
        }
    }

    /// The two files of this process, read now.
    static func current() throws(ControlGroupError) -> ControlGroupMounts {
        guard let mountInfo = ProcessTree.readSmallFile("/proc/self/mountinfo", capacity: 65536),
              let groups = ProcessTree.readSmallFile("/proc/self/cgroup") else {
            throw ControlGroupError("cannot read /proc/self/mountinfo or /proc/self/cgroup")
        }
        return ControlGroupMounts(mountInfo: mountInfo, groups: groups)
    }

    /// The directory of this process's own group in `controller`'s v1 hierarchy.
    func ownGroup(controller: String) throws(ControlGroupError) -> String {
        guard let mount = mounts[controller] else {
            throw ControlGroupError("no cgroup v1 hierarchy with the \(controller) controller is mounted (/proc/self/mountinfo)")
        }
        guard let path = groups[controller], path == mount.root || path.hasPrefix(mount.root == "/" ? "/" : mount.root + "/") else {
            throw ControlGroupError("this process's \(controller) group is not under \(mount.point) (/proc/self/cgroup)")
        }
        let relative = mount.root == "/" ? path : String(path.dropFirst(mount.root.count))
        return relative == "/" ? mount.point : mount.point + relative
    }

    /// Where " - " (before the mount's type) lies in a mountinfo line. A loop of its own:
    /// Foundation's `firstRange(of:)` on a byte slice is generic, and its type lookups cost a fresh
    /// host about 15 us a line (5 ms for a table of 330 mounts, measured with perf), on the launch path.
    static func typeSeparator(in line: ArraySlice<UInt8>) -> Range<Int>? {
        let (space, dash) = (UInt8(ascii: " "), UInt8(ascii: "-"))
        var index = line.startIndex
        while index + 2 < line.endIndex {
            if line[index] == space, line[index + 1] == dash, line[index + 2] == space { return index..<(index + 3) }
            index += 1
        }
        return nil
    }

    /// mountinfo escapes space, tab, newline and backslash as octal (`\040`).
    static func unescape(_ field: ArraySlice<UInt8>) -> String {
        guard field.contains(UInt8(ascii: "\\")) else { return String(decoding: field, as: UTF8.self) }
        var bytes: [UInt8] = []
        var characters = field
        while let byte = characters.popFirst() {
            if byte == UInt8(ascii: "\\"), characters.count >= 3,
               let value = UInt8(String(decoding: characters.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                characters = characters.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

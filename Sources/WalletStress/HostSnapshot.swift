import Foundation

/// The stress tool's own process at one moment: descriptors, threads, resident memory, and
/// children left unreaped (zombies). Taken before and after a run to show the host survived it.
public struct HostSnapshot: Sendable, Equatable, Codable {
    public var fileDescriptors: Int
    public var threads: Int
    public var rssBytes: Int
    /// Children of this process in state Z.
    public var zombies: Int
    /// What each open descriptor is (its `/proc/self/fd` link: a path, `pipe:[N]`,
    /// `anon_inode:[eventpoll]`), by number: ``newDescriptors(since:)`` names what a run left open.
    /// Not encoded: the report lists only the new ones.
    public var descriptorTargets: [Int32: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case fileDescriptors, threads, rssBytes, zombies
    }

    /// A snapshot of the given figures (``now()`` reads the process's own).
    public init(fileDescriptors: Int, threads: Int, rssBytes: Int, zombies: Int, descriptorTargets: [Int32: String] = [:]) {
        self.fileDescriptors = fileDescriptors
        self.threads = threads
        self.rssBytes = rssBytes
        self.zombies = zombies
        self.descriptorTargets = descriptorTargets
    }

    /// Reads /proc/self.
    public static func now() -> HostSnapshot {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var targets: [Int32: String] = [:]
        for name in names {
            guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")
            else { continue }
            targets[fd] = target
        }
        // contentsOfDirectory opened one descriptor of its own to list the others (and it is
        // closed now: its link no longer reads).
        return HostSnapshot(fileDescriptors: max(0, names.count - 1), threads: field("Threads"),
                            rssBytes: field("VmRSS") * 1024, zombies: ChildProcesses.list().filter(\.isZombie).count,
                            descriptorTargets: targets)
    }

    /// The descriptors open now that were not open at `earlier` (or were, as something else),
    /// each as `fd N: TARGET`, in order of number.
    public func newDescriptors(since earlier: HostSnapshot) -> [String] {
        descriptorTargets.filter { earlier.descriptorTargets[$0.key] != $0.value }
            .sorted { $0.key < $1.key }
            .map { "fd \($0.key): \($0.value)" }
    }
}

/// The processes this process started (read from /proc/self/task/*/children).
enum ChildProcesses {
    struct Child {
        var pid: Int32
        var isZombie: Bool
    }

    static func list() -> [Child] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var children: [Child] = []
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8) else { continue }
            for word in text.split(separator: " ") {
                guard let pid = Int32(word.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
                children.append(Child(pid: pid, isZombie: state(of: pid) == "Z"))
            }
        }
        return children
    }

    /// The state letter of /proc/PID/stat (after the parenthesized name, which may hold spaces).
    static func state(of pid: Int32) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].first { !$0.isWhitespace }
    }
}

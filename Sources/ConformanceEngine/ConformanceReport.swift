import Foundation

/// Every check run against one extension bundle, with what was set up for the run.
public struct ConformanceReport: Sendable, Hashable, Codable {
    /// The `.appex` directory as given.
    public var bundlePath: String
    /// The bundle directory's name without `.appex` ("WNonUIExt").
    public var name: String
    /// `CFBundleIdentifier`, when the manifest could be read.
    public var bundleIdentifier: String?
    /// The extension point, when the manifest names a known one.
    public var extensionPoint: String?
    /// What the run did before the checks (for example opening the containing app once).
    public var notes: [String]
    /// The checks in the order they ran.
    public var checks: [ConformanceCheck]
    /// The whole run, in milliseconds.
    public var durationMilliseconds: Double

    /// Creates a report.
    public init(bundlePath: String, name: String, bundleIdentifier: String?, extensionPoint: String?, notes: [String],
                checks: [ConformanceCheck], durationMilliseconds: Double) {
        self.bundlePath = bundlePath
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.extensionPoint = extensionPoint
        self.notes = notes
        self.checks = checks
        self.durationMilliseconds = durationMilliseconds
    }

    /// True when no check failed (skipped checks do not count against it).
    public var passed: Bool { !checks.contains { $0.status == .failed } }

    /// How many checks ended with `status`.
    public func count(_ status: ConformanceCheck.Status) -> Int {
        checks.count { $0.status == status }
    }

    /// The check with this identifier, if it ran.
    public func check(_ id: String) -> ConformanceCheck? {
        checks.first { $0.id == id }
    }

    /// The identifiers of the failed checks, in order.
    public var failedCheckIDs: [String] { checks.filter { $0.status == .failed }.map(\.id) }

    /// How a summary names an extension with failed checks: `name (check ids)`.
    public var failureName: String { "\(name) (\(failedCheckIDs.joined(separator: ", ")))" }

    /// What JUnit and people call this extension: its bundle identifier, else its name.
    public var suiteName: String { bundleIdentifier ?? name }

    /// The summary line: `WNonUIExt: 15 checks, 14 passed, 0 failed, 1 skipped (1.4 s)`.
    public var summary: String {
        "\(name): \(checks.count) checks, \(count(.passed)) passed, \(count(.failed)) failed, "
            + "\(count(.skipped)) skipped (\(Self.seconds(durationMilliseconds)))"
    }

    /// The text people read: a heading, the notes, one line per check
    /// (`PASS id: evidence`), then ``summary``; every line ends in a newline.
    public func render() -> String {
        var lines = [Self.heading(name: name, bundleIdentifier: bundleIdentifier, extensionPoint: extensionPoint)]
        lines += notes.map(Self.noteLine)
        let width = checks.map(\.id.count).max() ?? 0
        lines += checks.map { Self.line($0, width: width) }
        lines.append(summary)
        return lines.map { $0 + "\n" }.joined()
    }

    /// The heading of ``render()``: `conform WNonUIExt.appex (com.bank.ext, com.apple.PassKit...)`.
    static func heading(name: String, bundleIdentifier: String?, extensionPoint: String?) -> String {
        "conform \(name).appex" + (bundleIdentifier.map { " (\($0)" + (extensionPoint.map { ", \($0)" } ?? "") + ")" } ?? "")
    }

    /// A note's line in ``render()``.
    static func noteLine(_ note: String) -> String { "  note: \(note)" }

    /// A check's line in ``render()``: `  PASS id  evidence`, the id padded to `width`.
    static func line(_ check: ConformanceCheck, width: Int) -> String {
        let label: String
        switch check.status {
        case .passed: label = "PASS"
        case .failed: label = "FAIL"
        case .skipped: label = "SKIP"
        }
        let padding = String(repeating: " ", count: max(0, width - check.id.count))
        return "  \(label) \(check.id)\(padding)  \(check.evidence)"
    }

    static func seconds(_ milliseconds: Double) -> String {
        milliseconds < 1000 ? "\(Int(milliseconds.rounded())) ms" : String(format: "%.1f s", milliseconds / 1000)
    }

    enum CodingKeys: String, CodingKey {
        case bundlePath, name, bundleIdentifier, extensionPoint, notes, checks, passed
        case durationMilliseconds = "durationMs"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bundlePath = try container.decode(String.self, forKey: .bundlePath)
        name = try container.decode(String.self, forKey: .name)
        bundleIdentifier = try container.decodeIfPresent(String.self, forKey: .bundleIdentifier)
        extensionPoint = try container.decodeIfPresent(String.self, forKey: .extensionPoint)
        notes = try container.decode([String].self, forKey: .notes)
        checks = try container.decode([ConformanceCheck].self, forKey: .checks)
        durationMilliseconds = try container.decode(Double.self, forKey: .durationMilliseconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundlePath, forKey: .bundlePath)
        try container.encode(name, forKey: .name)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(extensionPoint, forKey: .extensionPoint)
        try container.encode(notes, forKey: .notes)
        try container.encode(checks, forKey: .checks)
        try container.encode(passed, forKey: .passed)
        try container.encode((durationMilliseconds * 1000).rounded() / 1000, forKey: .durationMilliseconds)
    }
}

extension [ConformanceReport] {
    /// The machine-readable form of a whole run: `{"passed": Bool, "reports": [...]}`, keys sorted.
    public func renderJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(ConformanceRunDocument(passed: allSatisfy(\.passed), reports: self)), as: UTF8.self)
    }
}

/// The top level of ``renderJSON()``'s output.
private struct ConformanceRunDocument: Encodable {
    var passed: Bool
    var reports: [ConformanceReport]
}

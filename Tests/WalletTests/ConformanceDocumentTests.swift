import Foundation
import Testing
@testable import ConformanceEngine
import WalletHostRuntime
import Wallet
import WalletTestSupport

/// docs/CONFORMANCE.md describes the battery `wallet-host conform` runs: its table of checks is
/// the code's plan for Wallet's two points (every check documented, in the order it runs, and
/// no check the code lacks), every check id it names elsewhere exists, and its `--json` keys are
/// the ones the report writes.
@Suite("docs/CONFORMANCE.md")
struct ConformanceDocumentTests {
    static func document() throws -> String {
        try String(contentsOf: BuildProducts.repositoryRoot.appendingPathComponent("docs/CONFORMANCE.md"), encoding: .utf8)
    }

    /// The text from heading `heading` to the next `## ` heading.
    static func section(_ heading: String) throws -> Substring {
        let text = try document()
        let start = try #require(text.range(of: "\n## \(heading)\n"), "docs/CONFORMANCE.md has no section \(heading)")
        let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return text[start.upperBound..<end]
    }

    /// The ids of the rows of "The checks", in order: `<method>` stands for each method of a point.
    static func documentedChecks() throws -> [String] {
        try section("The checks").split(separator: "\n").filter { $0.hasPrefix("| `") }
            .compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
    }

    /// The checks the suite plans for `point`, in order, as the table writes them: a method's
    /// name within an id becomes `<method>`, and a run of the same template counts once.
    static func plannedChecks(for point: ExtensionPoint) -> [String] {
        let profile = WalletConformance.profile(
            state: StateDirectory(url: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())")))
        let plan = [StandardChecks.manifestID]
            + StandardChecks.withoutManifest(point: point, options: ConformanceOptions(), profileChecks: profile.checks(point))
                .map(\.definition.id)
        let methods = Set(point.methods.map(\.name))
        var templates: [String] = []
        for id in plan {
            let template = id.split(separator: "-", omittingEmptySubsequences: false)
                .map { methods.contains(String($0)) ? "<method>" : String($0) }.joined(separator: "-")
            if templates.last != template { templates.append(template) }
        }
        return templates
    }

    /// Every concrete check id of either point.
    static func concreteCheckIDs() -> Set<String> {
        let profile = WalletConformance.profile(
            state: StateDirectory(url: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())")))
        return Set(ExtensionPointRegistry.wallet.points.flatMap { point in
            [StandardChecks.manifestID]
                + StandardChecks.withoutManifest(point: point, options: ConformanceOptions(), profileChecks: profile.checks(point))
                    .map(\.definition.id)
        })
    }

    @Test("the table lists every check the suite runs for either point, in the order it runs them, and nothing else")
    func tableIsThePlan() throws {
        let documented = try Self.documentedChecks()
        #expect(Set(documented).count == documented.count, "a check is listed twice: \(documented)")
        var planned: Set<String> = []
        for point in ExtensionPointRegistry.wallet.points {
            let plan = Self.plannedChecks(for: point)
            planned.formUnion(plan)
            // The point's checks appear in the table in the order they run.
            #expect(documented.filter(plan.contains) == plan, "\(point.identifier) runs \(plan)")
        }
        #expect(Set(documented).subtracting(planned).sorted() == [], "documented but never run")
        #expect(planned.subtracting(documented).sorted() == [], "run but not documented")
    }

    @Test("the timed checks exist for the methods the document says: deadlines of at most 1 s")
    func timedThreshold() throws {
        #expect(ConformanceOptions().timedDeadlineThreshold == .seconds(1))
        let prose = try Self.section("The checks").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(prose.contains("whose deadline is at most 1 s"))
    }

    @Test("every check id the misbehaviour table and the evidence examples name is one the suite runs")
    func namedChecksExist() throws {
        let known = Self.concreteCheckIDs()
        let table = try Self.section("What fails each misbehaviour of the test helper")
        var named: [String] = []
        for row in table.split(separator: "\n") where row.hasPrefix("| `") {
            // The failed and skipped columns, without code spans (commands, modes) and bold marks.
            let cells = row.split(separator: "|").map(String.init)
            for cell in cells.dropFirst(1).prefix(2) {
                let prose = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined().replacingOccurrences(of: "**", with: "")
                named += prose.matches(of: /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+/).map { String($0.output) }
            }
        }
        // The evidence lines of the examples: `PASS id`, `FAIL id`, `SKIP id`.
        let evidenceLine = /^ *(?:PASS|FAIL|SKIP) ([A-Za-z0-9-]+) {2}/.anchorsMatchLineEndings()
        named += try Self.document().matches(of: evidenceLine).map { String($0.output.1) }
        #expect(named.count > 40, "found only \(named)")
        #expect(Set(named).subtracting(known).sorted() == [], "named in docs/CONFORMANCE.md but not a check")
    }

    @Test("the --json keys the document lists are the ones a report writes")
    func jsonKeys() throws {
        let text = try Self.document()
        let bulletStart = try #require(text.range(of: "- `--json` prints"))
        let bulletEnd = try #require(text.range(of: "\n- ", range: bulletStart.upperBound..<text.endIndex))
        let bullet = text[bulletStart.upperBound..<bulletEnd.lowerBound]
        // Keys in code spans (`name`) and in the JSON shown (`{"passed": Bool, ...}`).
        let documented = Set(bullet.matches(of: /`([A-Za-z]+)`/).map { String($0.output.1) })
            .union(bullet.matches(of: /"([A-Za-z]+)":/).map { String($0.output.1) })

        let check = ConformanceCheck(id: "handshake", title: "t", status: .passed, evidence: "e", durationMilliseconds: 1)
        let report = ConformanceReport(bundlePath: "/x.appex", name: "x", bundleIdentifier: "b", extensionPoint: "p",
                                       notes: [], checks: [check], durationMilliseconds: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data([report].renderJSON().utf8)) as? [String: Any])
        let reportObject = try #require((object["reports"] as? [[String: Any]])?.first)
        let checkObject = try #require((reportObject["checks"] as? [[String: Any]])?.first)
        let written = Set(object.keys).union(reportObject.keys).union(checkObject.keys)
        let statuses: Set<String> = ["passed", "failed", "skipped"]
        #expect(Set([ConformanceCheck.Status.passed, .failed, .skipped].map(\.rawValue)) == statuses)
        #expect(documented.subtracting(written.union(statuses)).sorted() == [], "documented but not written")
        #expect(written.subtracting(documented).sorted() == [], "written but not documented")
    }
}

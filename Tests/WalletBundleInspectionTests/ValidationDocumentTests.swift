import Foundation
import Testing
import WalletBundleInspection
import WalletTestSupport

/// docs/VALIDATION.md's findings table lists every check the code has, with the code's own
/// title and on-device symptom, and no check the code lacks.
@Suite("docs/VALIDATION.md")
struct ValidationDocumentTests {
    static func tableRows() throws -> [String] {
        let text = try String(contentsOf: BuildProducts.repositoryRoot.appendingPathComponent("docs/VALIDATION.md"), encoding: .utf8)
        let findings = try #require(text.range(of: "\n## Findings\n"))
        return text[findings.upperBound...].split(separator: "\n").map(String.init).filter { $0.hasPrefix("| `") }
    }

    @Test func theTableListsEveryCheckOnce() throws {
        let rows = try Self.tableRows()
        let documented = rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(documented == DeviceBuildCheck.allCases.map(\.rawValue))
    }

    @Test("each row gives the check's title and symptom as the code words them", arguments: DeviceBuildCheck.allCases)
    func rowMatchesTheCode(check: DeviceBuildCheck) throws {
        let row = try #require(try Self.tableRows().first { $0.hasPrefix("| `\(check.rawValue)` |") })
        #expect(row.hasPrefix("| `\(check.rawValue)` | \(check.title) | "))
        #expect(row.hasSuffix(" | \(check.symptom) |"))
    }
}

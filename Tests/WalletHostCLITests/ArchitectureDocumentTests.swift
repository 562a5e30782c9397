import Foundation
import Testing
import WalletTestSupport

/// docs/ARCHITECTURE.md's module table names every module Package.swift declares, with the
/// modules it depends on, and no other: a module added, moved or given a new dependency without
/// its row fails here. Package.swift is read as `swift package dump-package` prints it (offline,
/// about a second), so that its variables and `map`s are already resolved.
@Suite("docs/ARCHITECTURE.md's module table and Package.swift", .timeLimit(.minutes(1)))
struct ArchitectureDocumentTests {
    /// One target as the package declares it.
    struct DeclaredModule: Equatable {
        var name: String
        var dependencies: Set<String>
    }

    /// The targets the table covers: every one but the test targets and the example and benchmark programs.
    static func declaredModules() throws -> [String: DeclaredModule] {
        let swift = try #require(executableOnPath("swift"), "`swift` is not on PATH: cannot read Package.swift")
        let scratch = try TemporaryDirectory(prefix: "wallet-host-dump-package")
        defer { scratch.remove() }
        let process = Process()
        process.executableURL = swift
        // A scratch path of its own: the build's `.build` may be locked by the `swift test` running this.
        process.arguments = ["package", "--package-path", BuildProducts.repositoryRoot.path, "--scratch-path", scratch.url.path,
                             "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package dump-package exited with \(process.terminationStatus)")
        let package = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let targets = try #require(package["targets"] as? [[String: Any]])
        var modules: [String: DeclaredModule] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            let path = target["path"] as? String ?? ""
            guard target["type"] as? String != "test", !path.hasPrefix("Examples/"), !path.hasPrefix("Benchmarks/") else { continue }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                // {"byName": ["X", null]}, {"target": ["X", null]} or {"product": ["X", "package", ...]}.
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            modules[name] = DeclaredModule(name: name, dependencies: Set(dependencies))
        }
        return modules
    }

    /// The rows of the table under "## Modules": the module's name and the names in backticks of its "depends on" cell.
    static func documentedModules() throws -> [String: DeclaredModule] {
        let text = try String(contentsOf: BuildProducts.repositoryRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(text.range(of: "\n## Modules\n"), "docs/ARCHITECTURE.md has no \"## Modules\" section")
        let header = try #require(text.range(of: "| module | depends on | what it holds |", range: section.upperBound..<text.endIndex))
        var modules: [String: DeclaredModule] = [:]
        let lines = text[header.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
        for line in lines {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count >= 4, "a row without three cells: \(line)")
            let name = try #require(backticked(cells[1]).first, "a row whose module is not in backticks: \(line)")
            #expect(modules[name] == nil, "\(name) has two rows")
            modules[name] = DeclaredModule(name: name, dependencies: Set(backticked(cells[2])))
        }
        return modules
    }

    @Test func theModuleTableNamesEveryModuleOfPackageSwiftWithItsDependencies() throws {
        let declared = try Self.declaredModules()
        let documented = try Self.documentedModules()
        #expect(declared.count > 30, "Package.swift was read: \(declared.keys.sorted())")
        let missing = Set(declared.keys).subtracting(documented.keys).sorted()
        let stale = Set(documented.keys).subtracting(declared.keys).sorted()
        #expect(missing.isEmpty, "Package.swift declares modules docs/ARCHITECTURE.md's table lacks: \(missing)")
        #expect(stale.isEmpty, "docs/ARCHITECTURE.md's table names modules Package.swift does not declare: \(stale)")
        for name in Set(declared.keys).intersection(documented.keys).sorted() {
            let package = declared[name]!.dependencies
            let document = documented[name]!.dependencies
            #expect(package == document, """
                \(name): Package.swift depends on \(package.sorted()), docs/ARCHITECTURE.md says \(document.sorted()) \
                (missing there: \(package.subtracting(document).sorted()), not in Package.swift: \(document.subtracting(package).sorted()))
                """)
        }
    }

    /// The words in backticks in `cell`, in order.
    static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 ? String(part) : nil
        }
    }

    /// The first executable called `name` in a directory of `PATH`.
    static func executableOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

import Foundation
import Testing
import WalletTestSupport

/// The code blocks of Apple's Wallet Extensions guide for issuers, read from the reference
/// copy beside the checkout (`../shared/reference/000_8d4735f1b8667caf.txt`, or the file
/// named by `WALLET_HOST_GUIDE`) and type-checked, unchanged, against the SDK's modules.
///
/// The guide is not part of this repository (it is Apple's text), so where it is absent the
/// test does not run. Beside the guide's blocks is only what the guide leaves to the issuer:
/// its credential type, its server call and its `log` (Examples/GuideIssuer/GuideNonUIExt/Models.swift).
@Suite("The guide's code blocks build unchanged")
struct GuideCodeBlocksTests {
    static let guide: URL? = {
        let beside = BuildProducts.repositoryRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/reference/000_8d4735f1b8667caf.txt").path
        let candidates: [String?] = [ProcessInfo.processInfo.environment["WALLET_HOST_GUIDE"], beside]
        return candidates.compactMap { $0 }.map { URL(fileURLWithPath: $0) }
            .first { FileManager.default.isReadableFile(atPath: $0.path) }
    }()

    /// The guide's code blocks, in order: each starts with a `// Name.swift` line and ends
    /// with an indentation-only line followed by an empty one.
    static func codeBlocks(in text: String) -> [(file: String, code: String)] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [(String, String)] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("// "), line.hasSuffix(".swift") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count, !(lines[end].allSatisfy { $0 == " " } && !lines[end].isEmpty
                                       && end + 1 < lines.count && lines[end + 1].isEmpty) {
                end += 1
            }
            blocks.append((String(line.dropFirst(3)), lines[index..<min(end, lines.count)].joined(separator: "\n")))
            index = end + 1
        }
        return blocks
    }

    /// The members of `class Name ... { members }` in `code`, without the guide's `. . .`
    /// elisions and without the stored properties the assembled class already has.
    static func members(of code: String, dropping declarations: [String]) -> String {
        guard let open = code.range(of: "{"), let close = code.range(of: "}", options: .backwards) else { return "" }
        return code[open.upperBound..<close.lowerBound].components(separatedBy: "\n")
            .filter { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed != ". . ." && !declarations.contains(trimmed)
            }
            .joined(separator: "\n")
    }

    @Test("AppGroupManager, WatchConnectivitySession and the WNonUIExtHandler methods type-check unchanged",
          .enabled(if: guide != nil, "the guide is not beside the checkout (set WALLET_HOST_GUIDE)"))
    func guideBlocksTypeCheck() throws {
        let blocks = Self.codeBlocks(in: try String(contentsOf: try #require(Self.guide), encoding: .utf8))
        func block(_ file: String, containing marker: String) throws -> String {
            try #require(blocks.first { $0.file == file && $0.code.contains(marker) }?.code, "no \(file) block with \(marker)")
        }
        let appGroupManager = try block("AppGroupManager.swift", containing: "UserDefaults(suiteName: appGroupID)")
        let watchSession = try block("WatchConnectivitySession.swift", containing: "activationDidCompleteWith")
        // The status block is the whole class; the others add one method each, or the private
        // helpers. The remote entries block elides its body (". . ." inside the method), so it
        // is not code to build.
        let statusClass = try block("WNonUIExtHandler.swift", containing: "override func status(")
        let properties = ["let passLibrary = PKPassLibrary()", "let watchSession = WatchConnectivitySession()"]
        let methods = try ["override func passEntries(", "private func getPaymentPassEntry(",
                           "override func generateAddPaymentPassRequestForPassEntryWithIdentifier("]
            .map { try Self.members(of: block("WNonUIExtHandler.swift", containing: $0), dropping: properties) }
        let closing = try #require(statusClass.range(of: "}", options: .backwards))
        let handler = statusClass[..<closing.lowerBound] + methods.joined(separator: "\n") + "\n}\n"

        let directory = try TemporaryDirectory(prefix: "wallet-host-guide")
        defer { directory.remove() }
        var files: [URL] = []
        for (name, code) in [("AppGroupManager.swift", appGroupManager), ("WatchConnectivitySession.swift", watchSession),
                             ("WNonUIExtHandler.swift", String(handler))] {
            let file = directory.url.appendingPathComponent(name)
            try code.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        files.append(BuildProducts.repositoryRoot.appendingPathComponent("Examples/GuideIssuer/GuideNonUIExt/Models.swift"))

        for languageMode in ["5", "6"] {
            let swiftc = Process()
            swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            swiftc.arguments = ["swiftc", "-typecheck", "-parse-as-library", "-swift-version", languageMode,
                                "-module-name", "GuideCode", "-I", BuildProducts.directory.appendingPathComponent("Modules").path]
                + files.map(\.path)
            let output = Pipe()
            swiftc.standardOutput = output
            swiftc.standardError = output
            try swiftc.run()
            let diagnostics = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            swiftc.waitUntilExit()
            #expect(swiftc.terminationStatus == 0, "Swift \(languageMode) mode:\n\(diagnostics)")
        }
    }
}

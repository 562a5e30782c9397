import Foundation
import Testing
import WalletTestSupport

/// docs/CLI.md (and any other document that quotes a command's usage) shows what the built
/// `wallet-host help` prints, which is generated from the commands' specs: a block after
/// `<!-- wallet-host help COMMAND -->` is that command's help, word for word, so the reference
/// cannot drift from the parser. `WALLET_HOST_WRITE_DOCS=1` rewrites the blocks instead
/// (`WALLET_HOST_WRITE_DOCS=1 swift test --skip-build --filter CommandReferenceDocumentTests`).
@Suite("docs/CLI.md and the usage blocks of the other documents", .timeLimit(.minutes(2)))
struct CommandReferenceDocumentTests {
    /// The documents that may quote usage, relative to the repository root.
    static let documents = ["README.md", "docs/CLI.md", "docs/CONFORMANCE.md", "docs/DAEMON.md", "docs/STRESS.md",
                            "docs/VALIDATION.md", "docs/SDK.md", "docs/ARCHITECTURE.md"]
    static let marker = "<!-- wallet-host help"

    /// One generated block: the help arguments its marker names and where its text sits.
    struct GeneratedBlock {
        var helpArguments: [String]
        var body: Range<String.Index>
    }

    /// Every `<!-- wallet-host help [COMMAND] -->` marker in `text`, each followed by a fenced block.
    static func generatedBlocks(in text: String, document: String) throws -> [GeneratedBlock] {
        var blocks: [GeneratedBlock] = []
        var searchStart = text.startIndex
        while let markerRange = text.range(of: marker, range: searchStart..<text.endIndex) {
            let markerEnd = try #require(text.range(of: "-->", range: markerRange.upperBound..<text.endIndex),
                                         "\(document): an unclosed \(marker) marker")
            let command = text[markerRange.upperBound..<markerEnd.lowerBound].trimmingCharacters(in: .whitespaces)
            let fence = try #require(text.range(of: "\n```text\n", range: markerEnd.upperBound..<text.endIndex),
                                     "\(document): no ```text block after \(marker) \(command) -->")
            let followsAtOnce = text[markerEnd.upperBound..<fence.lowerBound].allSatisfy { $0.isWhitespace }
            #expect(followsAtOnce, "\(document): the ```text block must follow \(marker) \(command) --> at once")
            // The block ends at the first line that is only ``` (an empty block has no lines).
            var lineStart = fence.upperBound
            var close: Range<String.Index>?
            while lineStart < text.endIndex {
                let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
                if text[lineStart..<lineEnd] == "```" {
                    close = lineStart..<lineEnd
                    break
                }
                lineStart = lineEnd < text.endIndex ? text.index(after: lineEnd) : text.endIndex
            }
            let closingFence = try #require(close, "\(document): the block after \(marker) \(command) --> is not closed")
            blocks.append(GeneratedBlock(helpArguments: ["help"] + (command.isEmpty ? [] : [command]),
                                         body: fence.upperBound..<closingFence.lowerBound))
            searchStart = closingFence.upperBound
        }
        return blocks
    }

    /// What the built `wallet-host` prints for `arguments`: the lines of its block, each ending in a newline.
    static func help(_ arguments: [String]) throws -> String {
        let run = try WalletHostCommand.run(arguments)
        #expect(run.status == 0, "wallet-host \(arguments.joined(separator: " ")): \(run.standardError)")
        return run.standardOutput.hasSuffix("\n") ? run.standardOutput : run.standardOutput + "\n"
    }

    /// The commands `wallet-host help` lists: its lines `  NAME ...` (synopses start two spaces in).
    static func listedCommands() throws -> [String] {
        try help(["help"]).split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLowercase else { return nil }
            return line.dropFirst(2).split(separator: " ").first.map(String.init)
        }
    }

    @Test("every generated block is what wallet-host help prints now", arguments: documents)
    func blocksMatchTheBuiltHelp(document: String) throws {
        let url = BuildProducts.repositoryRoot.appendingPathComponent(document)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
        let blocks = try Self.generatedBlocks(in: text, document: document)
        var regenerated = text
        // From the end, so that earlier ranges stay valid.
        for block in blocks.reversed() {
            regenerated.replaceSubrange(block.body, with: try Self.help(block.helpArguments))
        }
        if ProcessInfo.processInfo.environment["WALLET_HOST_WRITE_DOCS"] == "1", regenerated != text {
            try regenerated.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        for block in blocks {
            let expected = try Self.help(block.helpArguments)
            #expect(String(text[block.body]) == expected,
                    "\(document): the block for wallet-host \(block.helpArguments.joined(separator: " ")) is out of date; run with WALLET_HOST_WRITE_DOCS=1")
        }
    }

    @Test("docs/CLI.md holds the top-level help and every command's help once, in the order help lists them")
    func referenceCoversEveryCommand() throws {
        let text = try String(contentsOf: BuildProducts.repositoryRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        let documented = try Self.generatedBlocks(in: text, document: "docs/CLI.md").map { $0.helpArguments.dropFirst().first ?? "" }
        let commands = try Self.listedCommands()
        #expect(commands.count >= 12, "wallet-host help lists \(commands)")
        #expect(documented == [""] + commands)
        for command in commands {
            #expect(text.contains("\n## `wallet-host \(command)`\n"), "docs/CLI.md has no section for \(command)")
        }
    }

    @Test("the parser of the block markers finds each block, an empty one too, and nothing past its fence")
    func markersParse() throws {
        let text = "intro\n<!-- wallet-host help call -->\n```text\nold usage\n```\n\nmore\n<!-- wallet-host help ps -->\n"
            + "```text\n```\n\n```\nnot generated\n```\n<!-- wallet-host help -->\n```text\nall\nof it\n```\n"
        let blocks = try Self.generatedBlocks(in: text, document: "example")
        #expect(blocks.map(\.helpArguments) == [["help", "call"], ["help", "ps"], ["help"]])
        #expect(blocks.map { String(text[$0.body]) } == ["old usage\n", "", "all\nof it\n"])
    }
}

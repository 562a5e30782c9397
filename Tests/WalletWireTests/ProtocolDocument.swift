import Foundation
import WalletTestSupport

/// docs/PROTOCOL.md split into the fenced blocks the tests check.
struct ProtocolDocument {
    /// One fenced code block.
    struct Block {
        /// 1-based position among the blocks of the same tag.
        var ordinal: Int
        /// The 1-based line number of the opening fence.
        var fenceLine: Int
        /// The closest heading above the block, for messages.
        var heading: String
        /// Each line inside the fence with its 1-based line number in the file.
        var lines: [(number: Int, text: String)]

        /// How a failure names the block, e.g. `json wire` block 3 (PROTOCOL.md:212, under "### 7.1 `status`").
        func name(tag: String) -> String {
            "`\(tag)` block \(ordinal) (PROTOCOL.md:\(fenceLine), under \"\(heading)\")"
        }
    }

    /// docs/PROTOCOL.md in this checkout.
    static let url = BuildProducts.repositoryRoot.appendingPathComponent("docs/PROTOCOL.md")

    let text: String

    init() throws {
        text = try String(contentsOf: Self.url, encoding: .utf8)
    }

    /// The blocks whose opening fence is exactly "```" followed by `tag`.
    func blocks(tagged tag: String) -> [Block] {
        var blocks: [Block] = []
        var heading = "(top)"
        var current: Block?
        var insideOtherFence = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if trimmed == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    block.lines.append((index + 1, line))
                    current = block
                }
            } else if insideOtherFence {
                if trimmed == "```" { insideOtherFence = false }
            } else if trimmed == "```" + tag {
                current = Block(ordinal: blocks.count + 1, fenceLine: index + 1, heading: heading, lines: [])
            } else if trimmed.hasPrefix("```") {
                insideOtherFence = true
            } else if line.hasPrefix("#") {
                heading = line
            }
        }
        return blocks
    }
}

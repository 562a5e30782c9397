/// Usage text, generated from the declaration so that it always matches what the parser accepts.
extension CommandSpec {
    /// The command's synopsis, wrapped: `call APPEX METHOD [--params JSON] [--state DIR] [--json]`
    /// followed by `[host options]` when it takes them.
    /// - Parameter indent: Where the first line starts; later lines line up after the command name.
    func synopsis(indent: Int) -> String {
        var words = [name] + arguments.map(\.name) + options.map(\.synopsis)
        if takesHostOptions { words.append("[host options]") }
        return Self.wrap(words, firstIndent: indent, indent: indent + name.count + 1)
    }

    /// What a usage error prints after the error: the command's arguments and where its options are described.
    var shortUsage: String {
        let words = ["usage: wallet-host", name] + arguments.map(\.name) + (allOptions.isEmpty ? [] : ["[options]"])
        return words.joined(separator: " ") + "   (wallet-host \(name) --help lists the options)"
    }

    /// What `wallet-host help COMMAND` and `wallet-host COMMAND --help` print.
    var usage: String {
        var text = "usage: wallet-host " + synopsis(indent: 19).dropFirst(19) + "\n\n"
            + Self.wrap(Self.words(summary), firstIndent: 0, indent: 0) + "\n"
        if !arguments.isEmpty {
            text += "\narguments:\n" + Self.table(arguments.map { ($0.name, $0.help) })
        }
        if !options.isEmpty {
            text += "\noptions:\n" + Self.table(options.map(\.usageRow))
        }
        if takesHostOptions {
            text += "\nhost options:\n" + Self.table(HostOptions.options.map(\.usageRow))
        }
        return text + "\n" + Self.exitStatus
    }

    /// The exit statuses every command shares.
    static let exitStatus = "Exit status: 0 success, 1 the extension or bundle failed, 2 usage error."

    /// Rows of `  label   help`, the help wrapped and aligned.
    static func table(_ rows: [(label: String, help: String)]) -> String {
        let width = min(max(rows.map(\.label.count).max() ?? 0, 8), 30) + 4
        return rows.map { row in
            let help = wrap(words(row.help), firstIndent: width, indent: width)
            if row.label.count + 2 >= width {
                return "  \(row.label)\n" + help + "\n"
            }
            return "  " + row.label.padding(toLength: width - 2, withPad: " ", startingAt: 0) + help.dropFirst(width) + "\n"
        }.joined()
    }

    /// The words of a sentence, for ``wrap(_:firstIndent:indent:width:)``.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Joins `words` with spaces into lines of at most `width` columns: the first line indented
    /// by `firstIndent` spaces, the others by `indent`.
    static func wrap(_ words: [String], firstIndent: Int, indent: Int, width: Int = 100) -> String {
        var lines: [String] = []
        var line = String(repeating: " ", count: firstIndent)
        var lineHasWords = false
        for word in words {
            if lineHasWords, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWords = false
            }
            line += (lineHasWords ? " " : "") + word
            lineHasWords = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

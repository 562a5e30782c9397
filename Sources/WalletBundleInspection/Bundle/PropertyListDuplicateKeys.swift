import Foundation

/// Finds keys given twice in the same `<dict>` of an XML property list.
///
/// `PropertyListSerialization` keeps one of the two values and says nothing, so a manifest with
/// `NSExtensionPrincipalClass` twice means one thing here and perhaps another to another tool.
/// The parser has already accepted the document when this runs, so the scan follows only the
/// structure: `<dict>` and `<array>` nesting, `<key>` text (entities and CDATA decoded),
/// comments, processing instructions and the DOCTYPE skipped. A binary property list is not
/// scanned (its dictionaries are rarely written by hand).
enum PropertyListDuplicateKeys {
    /// What a finding about such a key says.
    static let problem = "appears more than once in the same dictionary; a reader keeps only one of the values "
        + "(which one is up to the reader), so give it once"

    /// The key paths, dotted as findings name keys (`NSExtension.NSExtensionPrincipalClass`,
    /// `items[0].name`), of every key that a dictionary holds more than once, each once, in
    /// document order. Empty for a binary property list or text that is not UTF-8.
    static func find(in data: Data) -> [String] {
        guard !data.starts(with: Array("bplist".utf8)), let text = String(data: data, encoding: .utf8) else { return [] }
        var scanner = Scanner(text: Array(text.unicodeScalars))
        return scanner.run()
    }

    /// A container being read: a dictionary with the keys seen so far, or an array with its count.
    private struct Container {
        var path: String
        var isDictionary: Bool
        var keys: Set<String> = []
        var lastKey: String?
        var count = 0

        /// The path of the value that starts now in this container; counts it.
        mutating func nextValuePath() -> String {
            if isDictionary {
                let key = lastKey ?? "?"
                lastKey = nil
                return path.isEmpty ? key : "\(path).\(key)"
            }
            count += 1
            return "\(path)[\(count - 1)]"
        }
    }

    private struct Scanner {
        let text: [Unicode.Scalar]
        var index = 0
        var stack: [Container] = []
        var duplicates: [String] = []

        init(text: [Unicode.Scalar]) {
            self.text = text
        }

        mutating func run() -> [String] {
            while let open = position(of: "<", from: index) {
                index = open
                if starts(with: "<!--") {
                    skip(past: "-->")
                } else if starts(with: "<![CDATA[") {
                    skip(past: "]]>")
                } else if starts(with: "<?") {
                    skip(past: "?>")
                } else if starts(with: "<!") {
                    skipDeclaration()
                } else if starts(with: "</") {
                    let name = readTag().name
                    if name == "dict" || name == "array", !stack.isEmpty { stack.removeLast() }
                } else {
                    element(readTag())
                }
            }
            return duplicates
        }

        /// An opening (or empty) element: a key, a container, or another value.
        private mutating func element(_ tag: (name: String, isEmpty: Bool)) {
            switch tag.name {
            case "plist":
                return
            case "key":
                let key = tag.isEmpty ? "" : readKeyText()
                guard let top = stack.indices.last, stack[top].isDictionary else { return }
                let path = stack[top].path.isEmpty ? key : "\(stack[top].path).\(key)"
                if !stack[top].keys.insert(key).inserted, !duplicates.contains(path) { duplicates.append(path) }
                stack[top].lastKey = key
            default:
                let path = stack.indices.last.map { stack[$0].nextValuePath() } ?? ""
                if !tag.isEmpty, tag.name == "dict" || tag.name == "array" {
                    stack.append(Container(path: path, isDictionary: tag.name == "dict"))
                }
            }
        }

        /// Reads `<name ...>` or `</name>` from `<`; leaves the index after `>`.
        private mutating func readTag() -> (name: String, isEmpty: Bool) {
            index += starts(with: "</") ? 2 : 1
            var name = ""
            while index < text.count, !" \t\r\n/>".unicodeScalars.contains(text[index]) {
                name.unicodeScalars.append(text[index])
                index += 1
            }
            let close = position(of: ">", from: index) ?? text.count
            let isEmpty = close > 0 && close < text.count && text[close - 1] == "/"
            index = min(close + 1, text.count)
            return (name, isEmpty)
        }

        /// The text up to `</key>`, with entities and CDATA sections decoded.
        private mutating func readKeyText() -> String {
            var raw = ""
            while index < text.count, !starts(with: "</") {
                if starts(with: "<![CDATA[") {
                    let start = index + 9
                    skip(past: "]]>")
                    raw.unicodeScalars.append(contentsOf: text[start..<max(start, index - 3)])
                    continue
                }
                if text[index] == "&", let semicolon = position(of: ";", from: index) {
                    raw.unicodeScalars.append(contentsOf: Self.entity(String(String.UnicodeScalarView(text[(index + 1)..<semicolon]))))
                    index = semicolon + 1
                    continue
                }
                raw.unicodeScalars.append(text[index])
                index += 1
            }
            return raw
        }

        /// The text an entity reference (without `&` and `;`) stands for.
        private static func entity(_ name: String) -> String.UnicodeScalarView {
            switch name {
            case "lt": return "<".unicodeScalars
            case "gt": return ">".unicodeScalars
            case "amp": return "&".unicodeScalars
            case "quot": return "\"".unicodeScalars
            case "apos": return "'".unicodeScalars
            default:
                let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                return number.flatMap(Unicode.Scalar.init).map { String($0).unicodeScalars } ?? "&\(name);".unicodeScalars
            }
        }

        /// `<!DOCTYPE ...>`, whose internal subset (`[...]`) may hold `>`.
        private mutating func skipDeclaration() {
            var depth = 0
            while index < text.count {
                switch text[index] {
                case "[": depth += 1
                case "]": depth -= 1
                case ">" where depth <= 0:
                    index += 1
                    return
                default: break
                }
                index += 1
            }
        }

        private func starts(with prefix: String) -> Bool {
            var position = index
            for scalar in prefix.unicodeScalars {
                guard position < text.count, text[position] == scalar else { return false }
                position += 1
            }
            return true
        }

        private mutating func skip(past terminator: String) {
            while index < text.count, !starts(with: terminator) { index += 1 }
            index = min(index + terminator.unicodeScalars.count, text.count)
        }

        private func position(of scalar: Unicode.Scalar, from start: Int) -> Int? {
            var position = start
            while position < text.count {
                if text[position] == scalar { return position }
                position += 1
            }
            return nil
        }
    }
}

import Foundation

/// An element of a storyboard's XML: its name, attributes and children, in document order.
struct StoryboardElement: Sendable, Equatable {
    var name: String
    var attributes: [String: String]
    var children: [StoryboardElement]

    /// The first child named `name`.
    func child(_ name: String) -> StoryboardElement? { children.first { $0.name == name } }

    /// The first child named `name` whose `key` attribute is `key`.
    func child(_ name: String, key: String) -> StoryboardElement? {
        children.first { $0.name == name && $0.attributes["key"] == key }
    }

    /// Every element below this one, depth first.
    var descendants: [StoryboardElement] { children.flatMap { [$0] + $0.descendants } }
}

/// Reads the XML Interface Builder writes (`.storyboard`): elements, attributes and the five
/// predefined entities plus character references. Interface Builder writes no DTD, CDATA or
/// text content the importer needs, so a small scanner does, without linking an XML library
/// into the host.
enum StoryboardXML {
    /// The document element of `text`.
    /// - Throws: ``ImportError`` naming `source` and the offset of the first malformed tag.
    static func parse(_ text: String, source: String) throws -> StoryboardElement {
        var stack: [StoryboardElement] = [StoryboardElement(name: "#document", attributes: [:], children: [])]
        var index = text.startIndex
        func fail(_ problem: String) -> ImportError {
            ImportError("\(source): not a storyboard Interface Builder can write: \(problem) at character "
                        + "\(text.distance(from: text.startIndex, to: index))")
        }
        while let open = text[index...].firstIndex(of: "<") {
            index = open
            if text[open...].hasPrefix("<!--") {
                guard let end = text.range(of: "-->", range: open..<text.endIndex) else { throw fail("an unclosed comment") }
                index = end.upperBound
                continue
            }
            guard let close = text[open...].firstIndex(of: ">") else { throw fail("an unclosed tag") }
            let tag = text[text.index(after: open)..<close]
            index = text.index(after: close)
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                guard stack.count > 1, stack.last?.name == tag.dropFirst().trimmingCharacters(in: .whitespaces) else {
                    throw fail("a closing tag </\(tag.dropFirst())> that closes nothing open")
                }
                let done = stack.removeLast()
                stack[stack.count - 1].children.append(done)
                continue
            }
            let selfClosing = tag.hasSuffix("/")
            let element = try element(from: selfClosing ? tag.dropLast() : tag, fail: fail)
            if selfClosing {
                stack[stack.count - 1].children.append(element)
            } else {
                stack.append(element)
            }
        }
        guard stack.count == 1, let root = stack[0].children.first else {
            throw fail(stack.count > 1 ? "<\(stack.last!.name)> is never closed" : "no element")
        }
        return root
    }

    private static func element(from tag: Substring, fail: (String) -> ImportError) throws -> StoryboardElement {
        let name = String(tag.prefix { !$0.isWhitespace })
        var attributes: [String: String] = [:]
        var rest = tag.dropFirst(name.count)
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            let afterEquals = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = afterEquals.first, quote == "\"" || quote == "'" else { throw fail("an attribute without quotes") }
            let valueStart = afterEquals.index(after: afterEquals.startIndex)
            guard let valueEnd = afterEquals[valueStart...].firstIndex(of: quote) else { throw fail("an unclosed attribute") }
            attributes[key] = decodeEntities(afterEquals[valueStart..<valueEnd])
            rest = afterEquals[afterEquals.index(after: valueEnd)...]
        }
        return StoryboardElement(name: name, attributes: attributes, children: [])
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#10;` and `&#x41;` as the characters they stand for.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[String(entity)] {
                result += character
            } else if entity.hasPrefix("#"), let scalar = (entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                                                                              : UInt32(entity.dropFirst())).flatMap(Unicode.Scalar.init) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

import Foundation
import Testing
@testable import WalletHostRuntime
import WalletWire

/// docs/EVENTS.md is the event log's schema. Its examples are part of the contract: each
/// ```` ```json ```` block is one line that decodes as ``HostEvent`` and is exactly what
/// ``EventLogFile`` writes for that value (so a key's name, its JSON type and the `message`
/// sentence are all checked), and each kind's table of keys agrees with its example.
@Suite("docs/EVENTS.md")
struct EventsDocumentTests {
    /// docs/EVENTS.md split into headed sections, each with its tables and ```` ```json ```` blocks.
    struct Document {
        struct Example {
            /// The 1-based line number of the opening fence.
            var fenceLine: Int
            var lines: [String]
        }

        struct Table {
            var line: Int
            /// The header's cells, backticks removed.
            var header: [String]
            /// Each row's cells (backticks removed) with its 1-based line number.
            var rows: [(line: Int, cells: [String])]

            /// The cells of the column named `name`, by row.
            func column(_ name: String) -> [String]? {
                guard let index = header.firstIndex(of: name) else { return nil }
                return rows.map { index < $0.cells.count ? $0.cells[index] : "" }
            }
        }

        struct Section {
            var level: Int
            /// The heading's text, backticks removed.
            var title: String
            var line: Int
            var tables: [Table] = []
            var examples: [Example] = []

            /// The first table whose first header cell is `firstColumn`.
            func table(_ firstColumn: String) -> Table? {
                tables.first { $0.header.first == firstColumn }
            }
        }

        /// docs/EVENTS.md, found from this file: Tests/WalletHostRuntimeTests/ -> package root.
        static let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/EVENTS.md")

        var sections: [Section] = []

        init() throws {
            let text = try String(contentsOf: Self.url, encoding: .utf8)
            var sections = [Section(level: 0, title: "(top)", line: 1)]
            var example: Example?
            var insideOtherFence = false
            var table: Table?
            func cells(_ line: String) -> [String] {
                var trimmed = Substring(line.trimmingCharacters(in: .whitespaces))
                if trimmed.hasPrefix("|") { trimmed = trimmed.dropFirst() }
                if trimmed.hasSuffix("|") { trimmed = trimmed.dropLast() }
                return trimmed.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
                }
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
                let number = index + 1
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if var current = example {
                    if trimmed == "```" {
                        sections[sections.count - 1].examples.append(current)
                        example = nil
                    } else {
                        current.lines.append(line)
                        example = current
                    }
                    continue
                }
                if insideOtherFence {
                    if trimmed == "```" { insideOtherFence = false }
                    continue
                }
                if trimmed.hasPrefix("|") {
                    let row = cells(line)
                    if var current = table {
                        if !row.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) {
                            current.rows.append((number, row))
                        }
                        table = current
                    } else {
                        table = Table(line: number, header: row, rows: [])
                    }
                    continue
                }
                if let finished = table {
                    sections[sections.count - 1].tables.append(finished)
                    table = nil
                }
                if trimmed == "```json" {
                    example = Example(fenceLine: number, lines: [])
                } else if trimmed.hasPrefix("```") {
                    insideOtherFence = true
                } else if line.hasPrefix("#") {
                    let level = line.prefix { $0 == "#" }.count
                    let title = line.dropFirst(level).replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
                    sections.append(Section(level: level, title: title, line: number))
                }
            }
            if let finished = table { sections[sections.count - 1].tables.append(finished) }
            self.sections = sections
        }

        /// The `### kind` section of each kind (a kind listed twice keeps its first section).
        var kindSections: [HostEvent.Kind: Section] {
            var result: [HostEvent.Kind: Section] = [:]
            for section in sections where section.level == 3 {
                if let kind = HostEvent.Kind(rawValue: section.title), result[kind] == nil { result[kind] = section }
            }
            return result
        }

        func section(titled title: String) -> Section? {
            sections.first { $0.title == title }
        }
    }

    /// The settings of ``EventLogFile``'s encoder.
    static func logEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func logDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// How failures name an example: "`exit` example (EVENTS.md:412)".
    static func name(_ kind: String, _ example: Document.Example) -> String {
        "`\(kind)` example (EVENTS.md:\(example.fenceLine))"
    }

    /// The single example of `kind`, under its own section.
    static func example(of kind: HostEvent.Kind, in document: Document) throws -> Document.Example {
        let section = try #require(document.kindSections[kind], "EVENTS.md has no section ### `\(kind.rawValue)`")
        try #require(section.examples.count == 1,
                     "`\(kind.rawValue)` (EVENTS.md:\(section.line)) has \(section.examples.count) ```json examples, not 1")
        return section.examples[0]
    }

    /// The example's line as a JSON object, to look at its keys and their types.
    static func object(_ example: Document.Example, kind: String) throws -> [String: JSONValue] {
        let line = try #require(example.lines.first, "\(name(kind, example)) is empty")
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        return try #require(value.objectMembers, "\(name(kind, example)) is not a JSON object: \(line)")
    }

    /// Whether `value` has the JSON type a table's Type column names.
    static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("integer", .integer), ("number", .integer), ("number", .double),
             ("boolean", .bool), ("object", .object):
            return true
        case ("array of strings", .array(let items)):
            return items.allSatisfy { if case .string = $0 { true } else { false } }
        default:
            return false
        }
    }

    /// Checks `object` against a table of keys (columns Key, Type, Optional): every key not
    /// marked optional is present, every present key has the documented type, and every key
    /// present is documented in `table` or in `alsoDocumented`.
    static func check(_ object: [String: JSONValue], against table: Document.Table, alsoDocumented: Set<String> = [],
                      example: String) {
        guard let keys = table.column("Key"), let types = table.column("Type"), let optional = table.column("Optional") else {
            Issue.record("the table at EVENTS.md:\(table.line) needs the columns Key, Type and Optional")
            return
        }
        for (row, key) in keys.enumerated() {
            let line = table.rows[row].line
            if let value = object[key] {
                #expect(Self.value(value, is: types[row]),
                        "\(example): `\(key)` is documented as \(types[row]) (EVENTS.md:\(line)) but is \(value)")
            } else {
                #expect(optional[row].lowercased().hasPrefix("yes"),
                        "\(example) has no `\(key)`, which EVENTS.md:\(line) does not mark optional")
            }
        }
        for key in object.keys.sorted() where !keys.contains(key) && !alsoDocumented.contains(key) {
            Issue.record("\(example) has the key `\(key)`, which the table at EVENTS.md:\(table.line) does not document")
        }
    }

    @Test("every ```json block is the example of a kind, under that kind's section")
    func examplesAreUnderTheirKinds() throws {
        let document = try Document()
        var kindsSeen: Set<HostEvent.Kind> = []
        for section in document.sections where section.level == 3 {
            guard let kind = HostEvent.Kind(rawValue: section.title) else { continue }
            #expect(kindsSeen.insert(kind).inserted, "`\(kind.rawValue)` has a second section at EVENTS.md:\(section.line)")
        }
        for section in document.sections {
            let kind = section.level == 3 ? HostEvent.Kind(rawValue: section.title) : nil
            for example in section.examples {
                #expect(kind != nil,
                        "the ```json block at EVENTS.md:\(example.fenceLine) is under \"\(section.title)\", not a kind's section")
                guard let kind, let line = example.lines.first, example.lines.count == 1 else { continue }
                let decoded = try? Self.logDecoder().decode(HostEvent.self, from: Data(line.utf8))
                #expect(decoded == nil || decoded?.kind == kind,
                        "\(Self.name(kind.rawValue, example)) is a `\(decoded?.kind.rawValue ?? "")` event: \(line)")
            }
        }
        let missing = HostEvent.Kind.allCases.filter { !kindsSeen.contains($0) }.map(\.rawValue)
        #expect(missing.isEmpty, "EVENTS.md has no section for \(missing.joined(separator: ", "))")
    }

    @Test("each kind's example decodes and is exactly what EventLogFile writes", arguments: HostEvent.Kind.allCases)
    func exampleRoundTrips(_ kind: HostEvent.Kind) throws {
        let document = try Document()
        let example = try Self.example(of: kind, in: document)
        let name = Self.name(kind.rawValue, example)
        try #require(example.lines.count == 1, "\(name) has \(example.lines.count) lines, not 1")
        let line = example.lines[0]
        let event: HostEvent
        do {
            event = try Self.logDecoder().decode(HostEvent.self, from: Data(line.utf8))
        } catch {
            Issue.record("\(name) does not decode as HostEvent: \(error)\n\(line)")
            return
        }
        #expect(event.kind == kind, "\(name) is a `\(event.kind.rawValue)` event")
        let written = String(decoding: try Self.logEncoder().encode(event), as: UTF8.self)
        #expect(written == line, "\(name) is not what EventLogFile writes for it:\ndocument: \(line)\nwritten:  \(written)")
    }

    @Test("each kind's table documents its example's keys; keys missing from the example are optional",
          arguments: HostEvent.Kind.allCases)
    func tableMatchesExample(_ kind: HostEvent.Kind) throws {
        let document = try Document()
        let section = try #require(document.kindSections[kind], "EVENTS.md has no section ### `\(kind.rawValue)`")
        let table = try #require(section.table("Key"), "`\(kind.rawValue)` (EVENTS.md:\(section.line)) has no table of keys")
        let common = try #require(document.section(titled: "Common keys")?.table("Key"), "EVENTS.md has no table of common keys")
        let example = try Self.example(of: kind, in: document)
        let object = try Self.object(example, kind: kind.rawValue)
        let name = Self.name(kind.rawValue, example)
        let ownKeys = Set(table.column("Key") ?? [])
        let commonKeys = Set(common.column("Key") ?? [])
        #expect(ownKeys.isDisjoint(with: commonKeys),
                "`\(kind.rawValue)` (EVENTS.md:\(table.line)) documents common keys again: \(ownKeys.intersection(commonKeys).sorted())")
        Self.check(object, against: table, alsoDocumented: commonKeys, example: name)
        Self.check(object.filter { commonKeys.contains($0.key) }, against: common, example: name)
    }

    @Test("the stop reason objects in the examples match the Stop reasons tables")
    func stopReasons() throws {
        let document = try Document()
        let section = try #require(document.section(titled: "Stop reasons"), "EVENTS.md has no section Stop reasons")
        let keys = try #require(section.table("Key"), "Stop reasons (EVENTS.md:\(section.line)) has no table of keys")
        for (kind, key) in [(HostEvent.Kind.stop, "reason"), (.exit, "stopReason")] {
            let example = try Self.example(of: kind, in: document)
            let object = try Self.object(example, kind: kind.rawValue)
            guard case .object(let reason)? = object[key] else {
                Issue.record("\(Self.name(kind.rawValue, example)) has no `\(key)` object")
                continue
            }
            Self.check(reason, against: keys, example: "`\(key)` of the \(Self.name(kind.rawValue, example))")
        }
        let values = try #require(section.table("why")?.column("why"), "Stop reasons (EVENTS.md:\(section.line)) has no table of `why` values")
        #expect(values.sorted() == Self.stopReasonNames.sorted(), "the `why` table lists \(values), StopReason has \(Self.stopReasonNames)")
    }

    /// One StopReason of each case; `caseName` fails to compile when a case is added.
    static let stopReasonNames = [
        StopReason.requested("call finished"), .idle, .handshakeFailed,
        .hung(method: "status", requestID: "1", silenceMilliseconds: 1000), .beyondRepair(violations: 32, last: "x"),
        .closedResponseChannel, .containerQuota(usedBytes: 2 << 30, quotaBytes: 1 << 30),
    ].map(caseName)

    static func caseName(_ reason: StopReason) -> String {
        switch reason {
        case .requested, .idle, .handshakeFailed, .hung, .beyondRepair, .closedResponseChannel, .containerQuota: reason.name
        }
    }

    @Test("the Protocol violation reasons table lists every ProtocolViolation.Reason")
    func violationReasons() throws {
        let document = try Document()
        let section = try #require(document.section(titled: "Protocol violation reasons"),
                                   "EVENTS.md has no section Protocol violation reasons")
        let values = try #require(section.table("reason")?.column("reason"),
                                  "Protocol violation reasons (EVENTS.md:\(section.line)) has no table of `reason` values")
        let expected = ProtocolViolation.Reason.allCases.map(\.rawValue)
        #expect(values.sorted() == expected.sorted(), "the `reason` table lists \(values), ProtocolViolation.Reason has \(expected)")
    }
}

extension JSONValue {
    /// An object's members; nil for any other value.
    var objectMembers: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }
}

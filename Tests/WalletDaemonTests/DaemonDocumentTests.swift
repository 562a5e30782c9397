import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// Every `json daemon` block of docs/DAEMON.md, sent to a real daemon in document order: each
/// `→` line is sent, each `←` line must match what the daemon sends (see the page's rules for
/// `"…"` and numbers).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DaemonDocumentTests {
    struct Block {
        var fenceLine: Int
        var heading: String
        var lines: [(number: Int, text: String)]
    }

    static let url = BuildProducts.repositoryRoot.appendingPathComponent("docs/DAEMON.md")

    static func blocks() throws -> [Block] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var blocks: [Block] = []
        var heading = "(top)"
        var current: Block?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if var block = current {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    block.lines.append((index + 1, line))
                    current = block
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```json daemon" {
                current = Block(fenceLine: index + 1, heading: heading, lines: [])
            } else if line.hasPrefix("### ") {
                heading = line
            }
        }
        return blocks
    }

    @Test func everyMethodHasAnExample() throws {
        let text = try String(contentsOf: Self.url, encoding: .utf8)
        // The method table the daemon registers and the CLI calls (WalletDaemonClient's DaemonMethods).
        #expect(DaemonMethods.names.count == 18 && Set(DaemonMethods.names).count == 18)
        for method in DaemonMethods.names {
            #expect(text.contains("\"method\":\"\(method)\""), "DAEMON.md has no example of \(method)")
        }
    }

    @Test func everyExampleRunsAgainstARealDaemon() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp, ExampleBundles.testHelperApp])
        // The examples' shapes are the point, not Wallet's 100 ms (deadline tests hold that): the
        // first status here launches cold, which a loaded 2-core machine can take past 100 ms.
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=2s"]).waitUntilServing()
        let substitutions = [("$APPS", apps.standardizedFileURL.path), ("$STATE", daemon.state.standardizedFileURL.path)]
        let blocks = try Self.blocks()
        #expect(blocks.count >= 12)
        for block in blocks {
            let client = try DaemonClient(connectingTo: daemon.socketPath)
            client.setReceiveTimeout(.seconds(20))
            // Messages read while looking for a notification, for the next expectations.
            var held: [DaemonMessage] = []
            for (number, raw) in block.lines {
                var text = String(raw.dropFirst(2))
                for (name, value) in substitutions { text = text.replacingOccurrences(of: name, with: value) }
                let place = "DAEMON.md:\(number) (\(block.heading))"
                if raw.hasPrefix("→ ") {
                    try client.send(Data((text + "\n").utf8))
                    continue
                }
                try #require(raw.hasPrefix("← "), "\(place): a line starts with → or ←")
                let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                let expectsNotification = expected["method"] != nil && expected["id"] == nil
                var actual: DaemonMessage?
                if !expectsNotification, let index = held.firstIndex(where: { !($0.method != nil && $0.id == nil) }) {
                    actual = held.remove(at: index)
                }
                while actual == nil, let message = try client.readMessage() {
                    let isNotification = message.method != nil && message.id == nil
                    if expectsNotification {
                        if isNotification && message.method == expected["method"]?.string { actual = message } else if !isNotification { held.append(message) }
                    } else if !isNotification {
                        actual = message
                    }
                }
                let message = try #require(actual, "\(place): the daemon closed the connection")
                let value = Self.json(message)
                let mismatch = Self.mismatch(expected: expected, actual: value, path: "")
                #expect(mismatch == nil, "\(place): \(mismatch ?? "")\n  actual: \(value)")
            }
        }
        #expect(try await daemon.waitForExit() == 0, "host.shutdown stops the daemon")
    }

    /// The message as the JSON object it was on the wire.
    static func json(_ message: DaemonMessage) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: message.line)) ?? .null
    }

    /// Why `actual` does not match the documented `expected`, or nil when it does.
    static func mismatch(expected: JSONValue, actual: JSONValue, path: String) -> String? {
        switch (expected, actual) {
        case (.string("…"), _):
            return nil
        case (.integer, .integer), (.integer, .double), (.double, .double), (.double, .integer):
            return nil
        case (.object(let want), .object(let have)):
            let open = want["…"] != nil
            for (key, value) in want where key != "…" {
                guard let other = have[key] else { return "\(path).\(key) is missing" }
                if let problem = mismatch(expected: value, actual: other, path: "\(path).\(key)") { return problem }
            }
            if !open, let extra = Set(have.keys).subtracting(want.keys).sorted().first {
                return "\(path).\(extra) is not documented"
            }
            return nil
        case (.array(let want), .array(let have)):
            let open = want.last == .string("…")
            let fixed = open ? Array(want.dropLast()) : want
            guard have.count == fixed.count || (open && have.count >= fixed.count) else {
                return "\(path) has \(have.count) elements, documented \(fixed.count)\(open ? " or more" : "")"
            }
            for (index, value) in fixed.enumerated() {
                if let problem = mismatch(expected: value, actual: have[index], path: "\(path)[\(index)]") { return problem }
            }
            return nil
        default:
            return expected == actual ? nil : "\(path) is \(actual), documented \(expected)"
        }
    }
}

private extension JSONValue {
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

import Foundation
import WalletWire

/// Turns the JSON of a ``UserAgentScript`` into the script, with errors that name the file,
/// the path inside it (`answers[1].values.password`) and the problem.
struct UserAgentScriptParser {
    let source: String

    private static let topLevelKeys = ["issuer", "answers", "biometric", "select", "device"]
    private static let answerKeys = ["action", "values", "dismiss"]

    func parse(_ data: Data) throws -> UserAgentScript {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw fail(nil, "not valid JSON: \(JSONSyntax.problem(in: data) ?? underlying ?? context.debugDescription)")
        } catch {
            throw fail(nil, "not valid JSON: \(error)")
        }
        let top = try object(json, at: nil, keys: Self.topLevelKeys)
        var script = UserAgentScript()
        if let issuer = top["issuer"] { script.issuer = try string(issuer, at: "issuer") }
        if let answers = top["answers"] {
            script.answers = try array(answers, at: "answers").enumerated().map { index, answer in
                try parseAnswer(answer, at: "answers[\(index)]")
            }
        }
        if let biometric = top["biometric"] {
            script.biometric = try array(biometric, at: "biometric").enumerated().map { index, value in
                let path = "biometric[\(index)]"
                let text = try string(value, at: path)
                guard let result = UserAgentScript.BiometricResult(rawValue: text) else {
                    throw fail(path, "\"\(text)\" is not a biometric result; use \"match\" or \"nomatch\"")
                }
                return result
            }
        }
        if let select = top["select"] { script.selection = try parseSelection(select) }
        if let device = top["device"] {
            let text = try string(device, at: "device")
            guard let kind = DeviceKind(rawValue: text) else {
                throw fail("device", "\"\(text)\" is not a device; use \"iphone\" or \"watch\"")
            }
            script.device = kind
        }
        return script
    }

    private func parseAnswer(_ value: JSONValue, at path: String) throws -> UserAgentScript.Answer {
        let fields = try object(value, at: path, keys: Self.answerKeys)
        var answer: UserAgentScript.Answer
        switch (fields["action"], fields["dismiss"]) {
        case (nil, .bool(true)?):
            answer = .dismissal
        case (_?, .bool(true)?):
            throw fail(path, "\"action\" and \"dismiss\": choose a button or leave the sheet, not both")
        case (_, let dismiss?) where dismiss != .bool(false):
            throw fail("\(path).dismiss", "expected true or false, found \(kind(of: dismiss))")
        case (let action?, _):
            answer = UserAgentScript.Answer(action: try string(action, at: "\(path).action"))
        case (nil, _):
            throw fail(path, "missing \"action\": the button to choose (or \"dismiss\": true to leave the sheet)")
        }
        if let values = fields["values"] {
            guard case .object(let entries) = values else {
                throw fail("\(path).values", "expected an object of field name -> text, found \(kind(of: values))")
            }
            for (name, text) in entries {
                answer.values[name] = try string(text, at: "\(path).values.\(name)")
            }
        }
        return answer
    }

    private func parseSelection(_ value: JSONValue) throws -> EntrySelection {
        switch value {
        case .string("all"):
            return .all
        case .string(let other):
            throw fail("select", "\"\(other)\" is not a selection; use \"all\" or a list of entry identifiers")
        case .array(let items):
            return .identifiers(try items.enumerated().map { index, item in try string(item, at: "select[\(index)]") })
        default:
            throw fail("select", "expected \"all\" or a list of entry identifiers, found \(kind(of: value))")
        }
    }

    // MARK: Typed access

    private func object(_ value: JSONValue, at path: String?, keys: [String]) throws -> [String: JSONValue] {
        guard case .object(let fields) = value else {
            throw fail(path, "expected an object, found \(kind(of: value))")
        }
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            throw fail(path, "unknown key \"\(unknown)\" (known keys: \(keys.joined(separator: ", ")))")
        }
        return fields
    }

    private func array(_ value: JSONValue, at path: String) throws -> [JSONValue] {
        guard case .array(let items) = value else { throw fail(path, "expected a list, found \(kind(of: value))") }
        return items
    }

    private func string(_ value: JSONValue, at path: String) throws -> String {
        guard case .string(let text) = value else { throw fail(path, "expected a string, found \(kind(of: value))") }
        return text
    }

    private func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .double: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    private func fail(_ path: String?, _ problem: String) -> UserAgentError {
        UserAgentError("\(source): \(path.map { "\($0): " } ?? "")\(problem)")
    }
}

import Foundation

/// Why the host stopped an extension process.
public enum StopReason: Sendable, Equatable, CustomStringConvertible {
    /// A caller asked (end of a command, a conformance check, a reload), in its words.
    case requested(String)
    /// No call for the configured idle time.
    case idle
    /// The `initialize` handshake failed.
    case handshakeFailed
    /// A call stayed unanswered past its deadline and the hang grace.
    case hung(method: String, requestID: String, silenceMilliseconds: Double)
    /// Too many protocol violations on fd 4; the last one named.
    case beyondRepair(violations: Int, last: String)
    /// The extension closed fd 4 and kept running: nothing it does can answer a call.
    case closedResponseChannel
    /// Its App Group containers held more than its quota (``HostConfiguration/containerQuotaBytes``).
    case containerQuota(usedBytes: Int, quotaBytes: Int)

    public var description: String {
        switch self {
        case .requested(let words): return words
        case .idle: return "idle"
        case .handshakeFailed: return "handshake failed"
        case .hung(let method, let id, let silence):
            return "hung: no answer to \(method) (id \(id)) \(HumanReadable.milliseconds(silence)) after its deadline"
        case .beyondRepair(let violations, let last):
            return "beyond repair: \(violations) protocol violations on fd 4; the last: \(last)"
        case .closedResponseChannel: return "closed fd 4 while still running"
        case .containerQuota(let used, let quota):
            return "over its container quota: its App Group containers hold \(HumanReadable.megabytes(used)) of \(HumanReadable.megabytes(quota)) allowed"
        }
    }

    /// The case's name, as the event log writes it (`why`).
    public var name: String {
        switch self {
        case .requested: "requested"
        case .idle: "idle"
        case .handshakeFailed: "handshakeFailed"
        case .hung: "hung"
        case .beyondRepair: "beyondRepair"
        case .closedResponseChannel: "closedResponseChannel"
        case .containerQuota: "containerQuota"
        }
    }
}

extension StopReason: Codable {
    private enum CodingKeys: String, CodingKey { case why, detail, method, requestID, silenceMilliseconds, violations, lastViolation, usedBytes, quotaBytes }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .why)
        try container.encode(description, forKey: .detail)
        switch self {
        case .hung(let method, let id, let silence):
            try container.encode(method, forKey: .method)
            try container.encode(id, forKey: .requestID)
            try container.encode(silence, forKey: .silenceMilliseconds)
        case .beyondRepair(let violations, let last):
            try container.encode(violations, forKey: .violations)
            try container.encode(last, forKey: .lastViolation)
        case .containerQuota(let used, let quota):
            try container.encode(used, forKey: .usedBytes)
            try container.encode(quota, forKey: .quotaBytes)
        default:
            break
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let why = try container.decode(String.self, forKey: .why)
        switch why {
        case "requested": self = .requested(try container.decode(String.self, forKey: .detail))
        case "idle": self = .idle
        case "handshakeFailed": self = .handshakeFailed
        case "hung":
            self = .hung(method: try container.decode(String.self, forKey: .method),
                         requestID: try container.decode(String.self, forKey: .requestID),
                         silenceMilliseconds: try container.decode(Double.self, forKey: .silenceMilliseconds))
        case "beyondRepair":
            self = .beyondRepair(violations: try container.decode(Int.self, forKey: .violations),
                                 last: try container.decode(String.self, forKey: .lastViolation))
        case "closedResponseChannel": self = .closedResponseChannel
        case "containerQuota":
            self = .containerQuota(usedBytes: try container.decode(Int.self, forKey: .usedBytes),
                                   quotaBytes: try container.decode(Int.self, forKey: .quotaBytes))
        default:
            throw DecodingError.dataCorruptedError(forKey: .why, in: container, debugDescription: "unknown stop reason \"\(why)\"")
        }
    }
}

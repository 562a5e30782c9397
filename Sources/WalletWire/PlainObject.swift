import FoundationEssentials

/// A member of a flat object in the plain subset (``WireCodec/plainParams(from:)``).
public enum PlainScalar: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    /// `{}`.
    case emptyObject
}

/// A type a flat plain object can make without `JSONDecoder` (``WireCodec/plainResult(_:from:)``).
public protocol PlainJSONDecodable: Decodable {
    /// The value `JSONDecoder` decodes from the same object, or nil when this cannot vouch for
    /// it (a member missing or of another type): decode it with `JSONDecoder` then, which says
    /// what is wrong.
    init?(plainMembers members: [String: PlainScalar])
}

extension WireCodec {
    /// The params of a request line, when the line is in the plain subset
    /// (``decodePlain(_:)``) and the params are a flat object of strings, integers, booleans,
    /// `null` or `{}`; nil otherwise (decode them with ``params(_:from:)``). Absent, `null` or
    /// `{}` params give no members, as ``params(_:from:)`` reads them.
    public func plainParams(from line: Data) -> [String: PlainScalar]? {
        plainValue(of: line) { envelope in envelope.method != nil && !envelope.hasResult }
    }

    /// The params of a request line as `type`, without `JSONDecoder`, when `type` reads itself
    /// from plain members (``PlainJSONDecodable``) and vouches for these; nil otherwise.
    /// ``params(_:from:)`` tries this first.
    public func plainParams<Params>(_ type: Params.Type, from line: Data) -> Params? {
        guard let plainType = type as? any PlainJSONDecodable.Type, let members = plainParams(from: line) else { return nil }
        return plainType.init(plainMembers: members) as? Params
    }

    /// The result of a response line as `type`, without `JSONDecoder`, when the line is in the
    /// plain subset and its result a flat object `type` vouches for; nil otherwise.
    /// ``result(_:from:)`` tries this first.
    public func plainResult<Result>(_ type: Result.Type, from line: Data) -> Result? {
        guard let plainType = type as? any PlainJSONDecodable.Type,
              let members = plainValue(of: line, where: { $0.method == nil && $0.hasResult && $0.params == .absent && $0.valueRange != nil }) else { return nil }
        return plainType.init(plainMembers: members) as? Result
    }

    private func plainValue(of line: Data, where accepts: (PlainLineScanner.Envelope) -> Bool) -> [String: PlainScalar]? {
        line.withUnsafeBytes { bytes in
            var scanner = PlainLineScanner(bytes: bytes)
            guard let envelope = scanner.scanEnvelope(), accepts(envelope) else { return nil }
            guard let range = envelope.valueRange else { return envelope.params == .present ? nil : [:] }
            var value = PlainLineScanner(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
            return value.scanFlatObject()
        }
    }
}

extension StatusResult: PlainJSONDecodable {
    public init?(plainMembers members: [String: PlainScalar]) {
        guard case .bool(let passEntries)? = members["passEntriesAvailable"],
              case .bool(let remotePassEntries)? = members["remotePassEntriesAvailable"],
              case .bool(let requiresAuthentication)? = members["requiresAuthentication"] else { return nil }
        self.init(passEntriesAvailable: passEntries, remotePassEntriesAvailable: remotePassEntries,
                  requiresAuthentication: requiresAuthentication)
    }
}

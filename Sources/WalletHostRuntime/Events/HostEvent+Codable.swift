import Foundation

/// One flat JSON object per event: `time`, `kind`, `bundleIdentifier`, `pid`, the payload's own
/// keys beside them, and `message` (written for people, ignored when read back).
extension HostEvent: Codable {
    private enum CommonKeys: String, CodingKey { case time, kind, bundleIdentifier, pid, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CommonKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encodeIfPresent(pid, forKey: .pid)
        try container.encode(message, forKey: .message)
        switch payload {
        case .spawn(let value): try value.encode(to: encoder)
        case .spawnFailed(let value): try value.encode(to: encoder)
        case .handshake(let value): try value.encode(to: encoder)
        case .handshakeFailed(let value): try value.encode(to: encoder)
        case .call(let value), .service(let value): try value.encode(to: encoder)
        case .result(let value): try value.encode(to: encoder)
        case .error(let value): try value.encode(to: encoder)
        case .deadlineMiss(let value): try value.encode(to: encoder)
        case .lateCompletion(let value), .cancelAcknowledged(let value): try value.encode(to: encoder)
        case .doubleCompletion(let value), .unknownResponse(let value): try value.encode(to: encoder)
        case .protocolError(let value): try value.encode(to: encoder)
        case .memoryKill(let value): try value.encode(to: encoder)
        case .hung(let value): try value.encode(to: encoder)
        case .stop(let value): try value.encode(to: encoder)
        case .kill(let value): try value.encode(to: encoder)
        case .exit(let value): try value.encode(to: encoder)
        case .networkConnection(let value): try value.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CommonKeys.self)
        time = try container.decode(Date.self, forKey: .time)
        bundleIdentifier = try container.decodeIfPresent(String.self, forKey: .bundleIdentifier)
        pid = try container.decodeIfPresent(Int32.self, forKey: .pid)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .spawn: payload = .spawn(try Spawn(from: decoder))
        case .spawnFailed: payload = .spawnFailed(try SpawnFailed(from: decoder))
        case .handshake: payload = .handshake(try Handshake(from: decoder))
        case .handshakeFailed: payload = .handshakeFailed(try HandshakeFailed(from: decoder))
        case .call: payload = .call(try Request(from: decoder))
        case .service: payload = .service(try Request(from: decoder))
        case .result: payload = .result(try Completion(from: decoder))
        case .error: payload = .error(try ErrorCompletion(from: decoder))
        case .deadlineMiss: payload = .deadlineMiss(try DeadlineMiss(from: decoder))
        case .lateCompletion: payload = .lateCompletion(try LateCompletion(from: decoder))
        case .cancelAcknowledged: payload = .cancelAcknowledged(try LateCompletion(from: decoder))
        case .doubleCompletion: payload = .doubleCompletion(try Response(from: decoder))
        case .unknownResponse: payload = .unknownResponse(try Response(from: decoder))
        case .protocolError: payload = .protocolError(try ProtocolError(from: decoder))
        case .memoryKill: payload = .memoryKill(try MemoryKill(from: decoder))
        case .hung: payload = .hung(try Hung(from: decoder))
        case .stop: payload = .stop(try Stop(from: decoder))
        case .kill: payload = .kill(try Kill(from: decoder))
        case .exit: payload = .exit(try Exit(from: decoder))
        case .networkConnection: payload = .networkConnection(try NetworkConnection(from: decoder))
        }
    }
}

extension HostEvent.Exit {
    private enum CodingKeys: String, CodingKey { case exitCode, signal, cause, stopReason, milliseconds, footprintBytes, usage, description }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch status {
        case .exited(let code): try container.encode(code, forKey: .exitCode)
        case .signaled(let signal): try container.encode(SignalName.name(signal), forKey: .signal)
        }
        switch cause {
        case .ended: try container.encode("ended", forKey: .cause)
        case .memoryLimit: try container.encode("memoryLimit", forKey: .cause)
        case .stoppedByHost(let reason):
            try container.encode("stoppedByHost", forKey: .cause)
            try container.encode(reason, forKey: .stopReason)
        }
        try container.encode(milliseconds, forKey: .milliseconds)
        try container.encodeIfPresent(footprintBytes, forKey: .footprintBytes)
        try container.encodeIfPresent(usage, forKey: .usage)
        try container.encode(description, forKey: .description)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let code = try container.decodeIfPresent(Int32.self, forKey: .exitCode) {
            status = .exited(code)
        } else {
            let name = try container.decode(String.self, forKey: .signal)
            guard let number = SignalName.number(name) else {
                throw DecodingError.dataCorruptedError(forKey: .signal, in: container, debugDescription: "unknown signal \(name)")
            }
            status = .signaled(number)
        }
        milliseconds = try container.decode(Double.self, forKey: .milliseconds)
        footprintBytes = try container.decodeIfPresent(Int.self, forKey: .footprintBytes)
        usage = try container.decodeIfPresent(MemoryUsage.self, forKey: .usage)
        description = try container.decode(String.self, forKey: .description)
        switch try container.decode(String.self, forKey: .cause) {
        case "ended": cause = .ended
        case "memoryLimit": cause = .memoryLimit(footprintBytes: footprintBytes)
        case "stoppedByHost": cause = .stoppedByHost(reason: try container.decode(StopReason.self, forKey: .stopReason))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .cause, in: container, debugDescription: "unknown cause \(other)")
        }
    }
}

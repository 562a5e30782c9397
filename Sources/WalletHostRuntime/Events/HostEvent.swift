import Foundation

/// One entry of the event log: something the host saw or did to one extension process.
///
/// The log (``EventLogFile``) writes each event as one JSON object per line: the common keys
/// `time`, `kind`, `bundleIdentifier`, `pid`, the payload's keys beside them, and `message`, a
/// sentence for people. docs/EVENTS.md is the schema, with one example per kind. Code reads the
/// typed ``payload``; nothing needs to parse `message`.
public struct HostEvent: Sendable, Equatable {
    public var time: Date
    public var bundleIdentifier: String?
    public var pid: Int32?
    public var payload: Payload

    public init(_ payload: Payload, bundleIdentifier: String? = nil, pid: Int32? = nil, time: Date = Date()) {
        self.time = time
        self.bundleIdentifier = bundleIdentifier
        self.pid = pid
        self.payload = payload
    }

    /// What happened, with the facts of that kind of event.
    public enum Payload: Sendable, Equatable {
        /// The process started (`milliseconds`: how long the spawn took).
        case spawn(Spawn)
        /// The executable could not be started.
        case spawnFailed(SpawnFailed)
        /// The `initialize` handshake completed (`milliseconds` from the spawn).
        case handshake(Handshake)
        /// The `initialize` handshake failed; the process is stopped.
        case handshakeFailed(HandshakeFailed)
        /// A call was asked of the extension (written at once, or queued behind the handshake).
        case call(Request)
        /// A call completed with a result.
        case result(Completion)
        /// A call ended with an error: the extension's JSON-RPC error, a response the host could
        /// not use (-32014), or the host's own when the call failed with its process.
        case error(ErrorCompletion)
        /// A call's deadline passed; the caller got an error and the extension, if the request was
        /// written, `$/cancelRequest`.
        case deadlineMiss(DeadlineMiss)
        /// A response arrived after its call's deadline; it was dropped.
        case lateCompletion(LateCompletion)
        /// The extension answered `$/cancelRequest` with -32002: it is alive.
        case cancelAcknowledged(LateCompletion)
        /// A second response to a request already answered; dropped.
        case doubleCompletion(Response)
        /// A response to a request the host never sent, or no longer tracks; dropped.
        case unknownResponse(Response)
        /// A line on fd 4 that is not usable protocol.
        case protocolError(ProtocolError)
        /// The footprint crossed the memory limit; the host killed the process group.
        case memoryKill(MemoryKill)
        /// No answer to a call within the hang grace after its deadline; the process is stopped.
        case hung(Hung)
        /// The host began stopping the process.
        case stop(Stop)
        /// The host signalled the process group while stopping it.
        case kill(Kill)
        /// The process was reaped.
        case exit(Exit)
        /// The extension asked the host for a service (pass library, watch, UI).
        case service(Request)
        /// The extension opened a connection through the host's egress proxy (`--network proxy`):
        /// where to, allowed or refused, and the bytes each way once it closed.
        case networkConnection(NetworkConnection)
    }

    /// The payload's kind, as the log's `kind` key names it.
    public var kind: Kind { payload.kind }

    /// The method the event is about, for the kinds that have one.
    public var method: String? {
        switch payload {
        case .call(let request), .service(let request): return request.method
        case .result(let completion): return completion.method
        case .error(let completion): return completion.method
        case .deadlineMiss(let miss): return miss.method
        case .lateCompletion(let late), .cancelAcknowledged(let late): return late.method
        case .hung(let hung): return hung.method
        default: return nil
        }
    }

    /// The peak or sampled footprint the event carries, if any.
    public var footprintBytes: Int? {
        switch payload {
        case .result(let completion): return completion.footprintBytes
        case .error(let completion): return completion.footprintBytes
        case .memoryKill(let kill): return kill.footprintBytes
        case .exit(let exit): return exit.footprintBytes
        default: return nil
        }
    }
}


extension HostEvent {
    /// Every kind of event, as written in the log's `kind` key.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case spawn, spawnFailed, handshake, handshakeFailed, call, result, error, deadlineMiss, lateCompletion,
             cancelAcknowledged, doubleCompletion, unknownResponse, protocolError, memoryKill, hung, stop, kill, exit,
             service, networkConnection
    }
}

extension HostEvent.Payload {
    /// The payload's kind.
    public var kind: HostEvent.Kind {
        switch self {
        case .spawn: .spawn
        case .spawnFailed: .spawnFailed
        case .handshake: .handshake
        case .handshakeFailed: .handshakeFailed
        case .call: .call
        case .result: .result
        case .error: .error
        case .deadlineMiss: .deadlineMiss
        case .lateCompletion: .lateCompletion
        case .cancelAcknowledged: .cancelAcknowledged
        case .doubleCompletion: .doubleCompletion
        case .unknownResponse: .unknownResponse
        case .protocolError: .protocolError
        case .memoryKill: .memoryKill
        case .hung: .hung
        case .stop: .stop
        case .kill: .kill
        case .exit: .exit
        case .service: .service
        case .networkConnection: .networkConnection
        }
    }
}

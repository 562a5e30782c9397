import Foundation

// What each kind of event records: the payloads of ``HostEvent/Payload``, one type per kind.

extension HostEvent {
    public struct Spawn: Sendable, Equatable, Codable {
        public var executablePath: String
        /// How long the fork and exec took.
        public var milliseconds: Double
        /// Whether the process runs in the sandbox (absent in logs written before there was one).
        public var sandboxed: Bool?
        /// Why it does not: `--sandbox off`, or what the kernel refused.
        public var unsandboxedReason: String?
        public init(executablePath: String, milliseconds: Double, sandboxed: Bool? = nil, unsandboxedReason: String? = nil) {
            self.executablePath = executablePath
            self.milliseconds = milliseconds
            self.sandboxed = sandboxed
            self.unsandboxedReason = unsandboxedReason
        }
    }

    public struct SpawnFailed: Sendable, Equatable, Codable {
        public var executablePath: String
        public var reason: String
        public init(executablePath: String, reason: String) {
            self.executablePath = executablePath
            self.reason = reason
        }
    }

    public struct Handshake: Sendable, Equatable, Codable {
        /// From the spawn to the `initialize` response.
        public var milliseconds: Double
        /// The extension's `runtime` (name and version).
        public var runtime: String
        /// The methods the extension listed.
        public var methods: [String]
        public init(milliseconds: Double, runtime: String, methods: [String]) {
            self.milliseconds = milliseconds
            self.runtime = runtime
            self.methods = methods
        }
    }

    public struct HandshakeFailed: Sendable, Equatable, Codable {
        public var milliseconds: Double
        public var reason: String
        public init(milliseconds: Double, reason: String) {
            self.milliseconds = milliseconds
            self.reason = reason
        }
    }

    /// A request by id: a call the host asked, or a service the extension asked for.
    public struct Request: Sendable, Equatable, Codable {
        public var method: String
        public var requestID: String
        public init(method: String, requestID: String) {
            self.method = method
            self.requestID = requestID
        }
    }

    public struct Completion: Sendable, Equatable, Codable {
        public var method: String
        public var requestID: String
        /// From the ask (launch included when cold) to the response.
        public var milliseconds: Double
        /// The highest footprint sampled during the call.
        public var footprintBytes: Int?
        public init(method: String, requestID: String, milliseconds: Double, footprintBytes: Int?) {
            self.method = method
            self.requestID = requestID
            self.milliseconds = milliseconds
            self.footprintBytes = footprintBytes
        }
    }

    public struct ErrorCompletion: Sendable, Equatable, Codable {
        public var method: String
        public var requestID: String
        public var milliseconds: Double
        public var footprintBytes: Int?
        /// The extension's JSON-RPC error code and message.
        public var code: Int
        public var reason: String
        public init(method: String, requestID: String, milliseconds: Double, footprintBytes: Int?, code: Int, reason: String) {
            self.method = method
            self.requestID = requestID
            self.milliseconds = milliseconds
            self.footprintBytes = footprintBytes
            self.code = code
            self.reason = reason
        }
    }

    public struct DeadlineMiss: Sendable, Equatable, Codable {
        public var method: String
        public var requestID: String
        /// From the ask to the miss.
        public var milliseconds: Double
        public var deadlineMilliseconds: Double
        /// False when launch and handshake used up the deadline and the request was never written.
        public var sent: Bool
        public init(method: String, requestID: String, milliseconds: Double, deadlineMilliseconds: Double, sent: Bool) {
            self.method = method
            self.requestID = requestID
            self.milliseconds = milliseconds
            self.deadlineMilliseconds = deadlineMilliseconds
            self.sent = sent
        }
    }

    public struct LateCompletion: Sendable, Equatable, Codable {
        public var method: String
        public var requestID: String
        /// From the ask to the late response: how long the extension really took.
        public var milliseconds: Double
        public var deadlineMilliseconds: Double
        public init(method: String, requestID: String, milliseconds: Double, deadlineMilliseconds: Double) {
            self.method = method
            self.requestID = requestID
            self.milliseconds = milliseconds
            self.deadlineMilliseconds = deadlineMilliseconds
        }
    }

    public struct Response: Sendable, Equatable, Codable {
        public var requestID: String
        public init(requestID: String) {
            self.requestID = requestID
        }
    }

    public struct ProtocolError: Sendable, Equatable, Codable {
        public var violation: ProtocolViolation
        public init(violation: ProtocolViolation) {
            self.violation = violation
        }

        public init(from decoder: any Decoder) throws {
            violation = try ProtocolViolation(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try violation.encode(to: encoder)
        }
    }

    public struct MemoryKill: Sendable, Equatable, Codable {
        /// The extension's footprint: everything it runs, counted (``MemoryUsage``).
        public var footprintBytes: Int
        public var limitBytes: Int
        /// What was counted: the processes and their footprints, shared memory and `/tmp`.
        public var usage: MemoryUsage?
        /// Set when the kernel's OOM killer ended one of the extension's processes at this hard
        /// limit of its control group (the memory limit plus headroom for kernel memory) first.
        public var kernelLimitBytes: Int?
        public init(footprintBytes: Int, limitBytes: Int, usage: MemoryUsage? = nil, kernelLimitBytes: Int? = nil) {
            self.footprintBytes = footprintBytes
            self.limitBytes = limitBytes
            self.usage = usage
            self.kernelLimitBytes = kernelLimitBytes
        }
    }

    public struct Hung: Sendable, Equatable, Codable {
        public var method: String
        public var requestID: String
        /// How long the extension stayed silent after the deadline.
        public var silenceMilliseconds: Double
        public init(method: String, requestID: String, silenceMilliseconds: Double) {
            self.method = method
            self.requestID = requestID
            self.silenceMilliseconds = silenceMilliseconds
        }
    }

    public struct Stop: Sendable, Equatable, Codable {
        public var reason: StopReason
        public init(reason: StopReason) {
            self.reason = reason
        }
    }

    public struct Kill: Sendable, Equatable, Codable {
        /// `SIGTERM` or `SIGKILL`.
        public var signal: String
        /// The process group that got it (the extension leads its own group).
        public var processGroup: Int32
        public init(signal: String, processGroup: Int32) {
            self.signal = signal
            self.processGroup = processGroup
        }
    }

    public struct Exit: Sendable, Equatable, Codable {
        public var status: TerminationStatus
        public var cause: ExtensionExit.Cause
        /// How long the process ran.
        public var milliseconds: Double
        /// The last footprint sampled, for memory deaths.
        public var footprintBytes: Int?
        /// For memory deaths after a `memoryKill`: what was counted then.
        public var usage: MemoryUsage?
        /// The sentence a person reads (for memory deaths, in the kernel's words).
        public var description: String
        public init(status: TerminationStatus, cause: ExtensionExit.Cause, milliseconds: Double, footprintBytes: Int?,
                    usage: MemoryUsage? = nil, description: String) {
            self.status = status
            self.cause = cause
            self.milliseconds = milliseconds
            self.footprintBytes = footprintBytes
            self.usage = usage
            self.description = description
        }
    }
}

extension HostEvent {
    /// One connection an extension asked the egress proxy for (`--network proxy`).
    public struct NetworkConnection: Sendable, Equatable, Codable {
        /// The host as the extension named it (a name or an address).
        public var host: String
        public var port: Int
        /// The address the proxy connected to (or would have), when it got that far.
        public var address: String?
        /// Whether the proxy connected it.
        public var allowed: Bool
        /// Why it was refused or failed (`not in --allow-network`, `connection refused`...); nil when it worked.
        public var reason: String?
        /// `CONNECT` (a tunnel, HTTPS) or the HTTP method of a plain request.
        public var method: String
        /// Bytes from the extension to the destination, and back (headers of a plain request included).
        public var bytesSent: Int
        public var bytesReceived: Int
        /// From the extension's connection to the proxy until it closed.
        public var milliseconds: Double

        public init(host: String, port: Int, address: String?, allowed: Bool, reason: String?, method: String,
                    bytesSent: Int, bytesReceived: Int, milliseconds: Double) {
            self.host = host
            self.port = port
            self.address = address
            self.allowed = allowed
            self.reason = reason
            self.method = method
            self.bytesSent = bytesSent
            self.bytesReceived = bytesReceived
            self.milliseconds = milliseconds
        }
    }
}

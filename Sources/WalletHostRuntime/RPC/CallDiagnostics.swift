import Foundation

/// What else the host saw while a failed call was in flight: the evidence a person needs to
/// tell "my handler was slow" from "my handler printed garbage on fd 4" or "it crashed".
public struct CallDiagnostics: Sendable, Equatable {
    /// Lines on fd 4 that were not protocol (the first few), with why and an escaped excerpt.
    public var protocolViolations: [ProtocolViolation] = []
    /// The last lines the process wrote to stderr during the call, oldest first.
    public var stderrTail: [String] = []
    /// How the process ended, when it ended during the call.
    public var termination: TerminationStatus?
    /// The highest footprint sampled during the call.
    public var peakFootprintBytes: Int?

    public init(protocolViolations: [ProtocolViolation] = [], stderrTail: [String] = [],
                termination: TerminationStatus? = nil, peakFootprintBytes: Int? = nil) {
        self.protocolViolations = protocolViolations
        self.stderrTail = stderrTail
        self.termination = termination
        self.peakFootprintBytes = peakFootprintBytes
    }

    /// True when the host saw nothing worth adding.
    public var isEmpty: Bool {
        protocolViolations.isEmpty && stderrTail.isEmpty && termination == nil && peakFootprintBytes == nil
    }

    /// One line per fact, for the human report ("fd 4: not valid JSON: garbage").
    /// - Parameter includingFootprint: false when the report shows the peak footprint elsewhere.
    public func lines(includingFootprint: Bool = true) -> [String] {
        var lines = protocolViolations.map { "fd 4: \($0)" }
        lines += stderrTail.map { "stderr: \($0)" }
        if let termination { lines.append("process \(termination.sentence)") }
        if includingFootprint, let peakFootprintBytes {
            lines.append("peak footprint \(HumanReadable.megabytes(peakFootprintBytes))")
        }
        return lines
    }
}

extension TerminationStatus {
    /// "exited with status 1", "was killed by SIGKILL": the end of a sentence whose subject is the process.
    public var sentence: String {
        switch self {
        case .exited: return description
        case .signaled: return "was \(description)"
        }
    }
}

extension TerminationStatus {
    /// `SIGKILL` for a process killed by signal 9; nil for one that exited.
    public var signalName: String? {
        if case .signaled(let signal) = self { return SignalName.name(signal) }
        return nil
    }
}

extension SignalName {
    /// The number of a conventional signal name (`SIGKILL` -> 9), or of `signal N`.
    static func number(_ name: String) -> Int32? {
        for signal in Int32(1)...Int32(64) where self.name(signal) == name { return signal }
        return nil
    }
}

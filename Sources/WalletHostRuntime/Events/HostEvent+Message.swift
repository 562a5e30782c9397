import Foundation

extension HostEvent {
    /// The event as a sentence for people (the log's `message` key).
    public var message: String {
        switch payload {
        case .spawn(let spawn):
            let sandbox = spawn.sandboxed.map { $0 ? ", sandboxed" : ", not sandboxed (\(spawn.unsandboxedReason ?? "unavailable"))" } ?? ""
            return "spawned \(spawn.executablePath) in \(HumanReadable.milliseconds(spawn.milliseconds))\(sandbox)"
        case .spawnFailed(let failure):
            return failure.reason
        case .handshake(let handshake):
            return "\(handshake.runtime) ready after \(HumanReadable.milliseconds(handshake.milliseconds)): "
                + handshake.methods.joined(separator: ", ")
        case .handshakeFailed(let failure):
            return "handshake failed after \(HumanReadable.milliseconds(failure.milliseconds)): \(failure.reason)"
        case .call(let request):
            return "\(request.method) asked (id \(request.requestID))"
        case .result(let completion):
            return "\(completion.method) answered in \(HumanReadable.milliseconds(completion.milliseconds))"
        case .error(let completion):
            return "\(completion.method) answered with error \(completion.code) in "
                + "\(HumanReadable.milliseconds(completion.milliseconds)): \(completion.reason)"
        case .deadlineMiss(let miss):
            let deadline = HumanReadable.milliseconds(miss.deadlineMilliseconds)
            return miss.sent
                ? "\(miss.method) missed its \(deadline) deadline; $/cancelRequest sent"
                : "\(miss.method) missed its \(deadline) deadline before it could be sent (launch and handshake took longer)"
        case .lateCompletion(let late):
            return "\(late.method) completed \(HumanReadable.milliseconds(late.milliseconds)) after the ask, "
                + "\(HumanReadable.milliseconds(late.milliseconds - late.deadlineMilliseconds)) past its "
                + "\(HumanReadable.milliseconds(late.deadlineMilliseconds)) deadline; dropped"
        case .cancelAcknowledged(let late):
            return "\(late.method) acknowledged the cancellation \(HumanReadable.milliseconds(late.milliseconds)) after the ask"
        case .doubleCompletion(let response):
            return "a second response to request \(response.requestID) was dropped"
        case .unknownResponse(let response):
            return "a response to request \(response.requestID), which the host never sent, was dropped"
        case .protocolError(let error):
            return error.violation.description
        case .memoryKill(let kill):
            let counted = kill.usage.map { " (\($0.description))" } ?? ""
            if let kernelLimit = kill.kernelLimitBytes {
                return "the kernel's OOM killer ended a process at the control group's \(HumanReadable.megabytes(kernelLimit)) "
                    + "hard limit; footprint \(HumanReadable.megabytes(kill.footprintBytes))\(counted); SIGKILL to every process"
            }
            return "footprint \(HumanReadable.megabytes(kill.footprintBytes)) over the "
                + "\(HumanReadable.megabytes(kill.limitBytes)) limit\(counted); SIGKILL to every process"
        case .hung(let hung):
            return "no answer to \(hung.method) (id \(hung.requestID)) "
                + "\(HumanReadable.milliseconds(hung.silenceMilliseconds)) after its deadline"
        case .stop(let stop):
            return "stopping: \(stop.reason)"
        case .kill(let kill):
            return "\(kill.signal) to process group \(kill.processGroup)"
        case .exit(let exit):
            return exit.description
        case .service(let request):
            return "the extension asked for \(request.method) (id \(request.requestID))"
        case .networkConnection(let connection):
            return connection.summary
        }
    }
}

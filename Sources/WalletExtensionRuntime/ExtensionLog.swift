import WalletWire

/// Log lines with a level, sent to the host as `$/log` notifications (the host writes them
/// into the extension's log with their level); on stderr when no host runs this process
/// (unit tests, a process started by hand).
package enum ExtensionLog {
    /// Sends `message` at `level` (`debug`, `info`, `notice`, `error`, `fault`).
    package static func send(level: String, message: String) {
        if let runtime = ExtensionRuntime.current.withLock({ $0 }) {
            runtime.writer.sendNotification(method: WireMethod.log, params: LogParams(level: level, message: message))
        } else {
            Diagnostics.writeToStandardError("\(level): \(message)\n")
        }
    }
}

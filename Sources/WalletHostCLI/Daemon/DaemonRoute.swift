import Foundation
import WalletHostRuntime
import WalletDaemonClient
import WalletWire

/// Whether a command runs through the daemon: the one named by `--connect`, else the one
/// serving the state directory when it answers on `<state>/wallet-host.sock`; `--no-daemon`
/// (or no daemon answering) runs it in this process.
struct DaemonRoute {
    let noDaemon: Bool
    let connect: String?

    init(_ parsed: ParsedArguments) {
        noDaemon = parsed.has("no-daemon")
        connect = parsed.value("connect")
    }

    /// The socket a daemon serving `state` listens on.
    static func socketPath(forState state: URL) -> String {
        state.standardizedFileURL.appendingPathComponent("wallet-host.sock").path
    }

    /// A connection to the daemon to use, or nil to run in this process.
    /// - Throws: ``CommandFailure`` when `--connect` names a socket nobody answers on.
    func client(state: URL) throws -> DaemonClient? {
        guard !noDaemon else { return nil }
        if let connect {
            do {
                return try DaemonClient(connectingTo: connect)
            } catch {
                throw CommandFailure("--connect: \(error)")
            }
        }
        return try? DaemonClient(connectingTo: Self.socketPath(forState: state))
    }

    /// Where a command's operations run, chosen once: the daemon when `daemonMay` and one
    /// answers (and, given `apps`, serves that apps directory), else this process.
    /// - Parameters:
    ///   - state: The state directory; the daemon serving it answers on its socket.
    ///   - configuration: The host options, for a run in this process.
    ///   - daemonMay: False when the command needs what only a run here gives (a host option,
    ///     a user agent, an HTML page with the offered art).
    ///   - apps: The apps directory the command works with; a daemon serving another one is not used.
    /// - Throws: ``CommandFailure`` when `--connect` names a socket nobody answers on.
    func session(state: URL, configuration: HostConfiguration, daemonMay: Bool = true, apps: URL? = nil) async throws -> any HostSession {
        let local = InProcessSession(stateURL: state, configuration: configuration, appsURL: apps)
        guard daemonMay, let client = try client(state: state) else { return local }
        if let apps {
            let status = try await Self.call(client, DaemonMethods.hostStatus, NoParams())
            guard status.appsDirectory == apps.standardizedFileURL.path else { return local }
        }
        return DaemonSession(client: client)
    }

    /// Runs one of the client API's methods, turning its error answer into the one sentence
    /// `wallet-host` prints.
    static func call<Params, Result>(_ client: DaemonClient, _ method: DaemonMethod<Params, Result>, _ params: Params,
                                     onNotification: (DaemonMessage) -> Void = { _ in },
                                     onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)? = nil) async throws -> Result {
        try await call(client, method.name, params, as: Result.self, onNotification: onNotification, onRequest: onRequest)
    }

    /// Runs a daemon request by its method's name (``DaemonMethods``), its result read as `type`
    /// (`ps --json` prints the daemon's JSON as it came), turning its error answer into the one
    /// sentence `wallet-host` prints.
    static func call<Result: Decodable>(_ client: DaemonClient, _ method: String, _ params: any Encodable & Sendable,
                                        as type: Result.Type,
                                        onNotification: (DaemonMessage) -> Void = { _ in },
                                        onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)? = nil) async throws -> Result {
        do {
            return try await client.call(method, params, as: type, onNotification: onNotification, onRequest: onRequest)
        } catch let error as RPCErrorObject {
            throw CommandFailure(error.message)
        } catch let error as DecodingError {
            throw CommandFailure("the daemon answered \(method) with \(WireCodec.describe(error))")
        }
    }

    /// The apps directory the daemon serves (nil when it does not say).
    static func appsDirectory(of client: DaemonClient) async -> String? {
        try? await client.call(DaemonMethods.hostStatus).appsDirectory
    }

    /// Prints a JSON value as `wallet-host` prints its one-line JSON reports.
    static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

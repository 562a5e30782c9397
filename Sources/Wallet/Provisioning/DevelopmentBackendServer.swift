import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Serves a ``DevelopmentIssuerBackend`` over HTTP/1.1 on a listening socket: one connection at
/// a time (a development backend sees one extension), one request per connection, each bounded
/// in size (``HTTPRequestParser``) and in time (``readTimeout``).
package struct DevelopmentBackendServer {
    package let listener: TCPListener
    package let backend = DevelopmentIssuerBackend()
    /// How long a connection may take to send its request.
    package var readTimeout: Duration = .seconds(5)
    private let parser = HTTPRequestParser(maximumHeadBytes: 16 * 1024, maximumBodyBytes: 256 * 1024)

    package init(listener: TCPListener) {
        self.listener = listener
    }

    /// Serves until `shouldStop` says so (checked at least once a second), calling `log` with one
    /// line per request: method, path, status and time.
    package func serve(log: (String) -> Void, shouldStop: () -> Bool = { false }) throws {
        while !shouldStop() {
            guard let connection = try listener.accept(timeoutMilliseconds: 1000) else { continue }
            let started = ContinuousClock.now
            let line = answer(connection)
            // Logged before the close, so that a client that sees the answer end sees its line.
            log("\(line) \(HumanReadable.milliseconds((ContinuousClock.now - started).milliseconds))")
            SystemCall.close(connection)
        }
    }

    /// Reads one request from `connection`, writes the answer; returns the log line.
    private func answer(_ connection: Int32) -> String {
        let deadline = ContinuousClock.now.advanced(by: readTimeout)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            switch parser.parse(received) {
            case .request(let request, _):
                let response = backend.respond(to: request)
                send(response, to: connection)
                return "\(request.method) \(request.path.prefix(80)) \(response.status)"
            case .refused(let response):
                send(response, to: connection)
                return "refused \(response.status)"
            case .incomplete:
                let remaining = deadline - ContinuousClock.now
                let milliseconds = Int32(clamping: Int64(remaining.milliseconds.rounded(.up)))
                var descriptors = [pollfd(fd: connection, events: Int16(POLLIN), revents: 0)]
                guard milliseconds > 0, SystemCall.poll(&descriptors, timeoutMilliseconds: milliseconds) > 0 else {
                    send(.error(408, "no whole request within \(HumanReadable.milliseconds(readTimeout.milliseconds))"), to: connection)
                    return "timed out 408"
                }
                let count = buffer.withUnsafeMutableBytes { (try? SystemCall.read(connection, into: $0)) ?? 0 }
                guard count > 0 else { return "closed before a whole request" }
                received.append(contentsOf: buffer[0..<count])
            }
        }
    }

    private func send(_ response: HTTPResponse, to connection: Int32) {
        let bytes = response.bytes(keepAlive: false)
        _ = bytes.withUnsafeBytes { try? SystemCall.writeAll(connection, $0) }
    }
}

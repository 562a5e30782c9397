import Foundation
import WalletDaemon

/// `serve --http HOST:PORT`: the studio page on the daemon's own loop (docs/STUDIO.md).
extension ServeCommand {
    static let httpOption = OptionSpec.valued("http", "HOST:PORT", help: """
        Also serve the studio page (Wallet in the browser) over HTTP on HOST:PORT, a numeric \
        address (127.0.0.1:0 picks a free port on loopback); its URL, with the token every request \
        must carry, is printed on stderr. Loopback unless you name another address.
        """)

    /// The address `--http` names, as a host to listen on and a port.
    static func httpAddress(_ parsed: ParsedArguments) throws(UsageError) -> (host: String, port: UInt16)? {
        guard let text = parsed.value("http") else { return nil }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("--http \(text): give HOST:PORT, such as 127.0.0.1:0 or [::1]:8080")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.isEmpty { host = "127.0.0.1" }
        return (host, port)
    }

    /// With `--http`, starts the page and prints its URL (the launcher registered `studio.open`
    /// before the daemon started answering, so `wallet-host studio` never finds it missing).
    static func startStudio(_ launcher: StudioLauncher, at address: (host: String, port: UInt16)?) throws {
        guard let address else { return }
        let studio = try launcher.start(host: address.host, port: address.port)
        let reach = StudioAccess.isLoopback(address.host) ? "" : " (beyond this machine: anyone with this URL can drive the daemon)"
        FileHandle.standardError.write(Data("wallet-host serve: studio page at \(studio.url)\(reach)\n".utf8))
    }
}

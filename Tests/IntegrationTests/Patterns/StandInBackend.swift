import Foundation
import WalletHostRuntime
import WalletTestSupport

/// The issuer's backend for the pattern extensions: a Python HTTP server on a free local port.
/// `GET /cards` lists two cards, `POST /login` accepts `pat` / `pattern-pass` (401 otherwise),
/// `POST /provision` encrypts the card for the leaf certificate it was sent (ECC_V2, with the
/// Python issuer's `issuer_crypto.py`, as a real backend would). Every request is counted by path.
final class StandInBackend: @unchecked Sendable {
    // @unchecked: the process and pipe are only used by the test that owns the backend.
    let baseURL: URL
    private let process: Process
    private let output: FileHandle

    static let script = #"""
        import base64, json, os, sys
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        sys.path.insert(0, sys.argv[1])
        import issuer_crypto

        CARDS = [{"id": "pat-card-1", "title": "Pattern Debit", "suffix": "1111", "cardholder": "Pat Doe"},
                 {"id": "pat-card-2", "title": "Pattern Credit", "suffix": "2222", "cardholder": "Pat Doe"}]
        # Card numbers stay in the backend (they pass Luhn and end with the suffixes above).
        PANS = {"pat-card-1": "4000001234021111", "pat-card-2": "4000001234062222"}

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                print("served", self.path, status, flush=True)

            def do_GET(self):
                self.answer(200, CARDS) if self.path == "/cards" else self.answer(404, {})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                if self.path == "/login":
                    ok = body.get("username") == "pat" and body.get("password") == "pattern-pass"
                    self.answer(200 if ok else 401, {"ok": ok})
                elif self.path == "/provision":
                    b64 = lambda data: base64.b64encode(data).decode()
                    chain = [base64.b64decode(certificate) for certificate in body["certificates"]]
                    card = body["card"]
                    sealed = issuer_crypto.encrypt(issuer_crypto.payload(
                        PANS[card], "12/39", "Pat Doe", base64.b64decode(body["nonce"]),
                        base64.b64decode(body["nonceSignature"])), chain)
                    self.answer(200, {field: b64(value) for field, value in sealed.items()})
                else:
                    self.answer(404, {})

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print("port", server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// The `--allow-network` entry that lets sandboxed extensions reach it through the egress proxy.
    var allowance: NetworkAllowance { NetworkAllowance(host: "127.0.0.1", port: baseURL.port ?? 80) }

    /// Starts the server and waits for its port.
    init() throws {
        guard let python = Python3.path else { throw BackendError("no python3 on PATH") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        // The Python issuer's ECC_V2 encryption (standard library only).
        process.arguments = ["-c", Self.script, BuildProducts.repositoryRoot.appendingPathComponent("Examples/PythonIssuer").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        output = pipe.fileHandleForReading
        try process.run()
        var firstLine = Data()
        while !firstLine.contains(UInt8(ascii: "\n")) {
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw BackendError("the stand-in backend exited before printing its port") }
            firstLine += chunk
        }
        let words = String(decoding: firstLine, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, words[0] == "port", let port = Int(words[1]) else {
            throw BackendError("the stand-in backend printed \(String(decoding: firstLine, as: UTF8.self))")
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops the server; returns the requests it served, one `served PATH STATUS` line each.
    func stop() -> [String] {
        // SIGKILL: the test process may ignore SIGTERM, and a child started by Process inherits that.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let served = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        return served.split(separator: "\n").map(String.init).filter { $0.hasPrefix("served") }
    }

    struct BackendError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

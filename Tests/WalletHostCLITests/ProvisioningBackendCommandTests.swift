import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import WalletTestSupport

/// `wallet-host provisioning backend`: the real command on a loopback port, asked over HTTP as an
/// extension would ask its bank's server; what it returns is checked by `provisioning verify`.
@Suite("provisioning backend", .serialized, .timeLimit(.minutes(1)))
struct ProvisioningBackendCommandTests {
    /// A running backend and its base URL (read from the line it prints on stderr).
    final class RunningBackend {
        let process = Process()
        let url: URL
        let errorFile = TemporaryDirectory.uniqueURL(prefix: "wallet-host-backend-stderr")

        init(arguments: [String] = []) throws {
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = BuildProducts.walletHost
            process.arguments = ["provisioning", "backend", "--port", "0"] + arguments
            process.standardError = try FileHandle(forWritingTo: errorFile)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var found: URL?
            for _ in 0..<500 where found == nil {
                let text = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                    found = URL(string: String(text[range]))
                } else {
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
            url = try #require(found, "the backend printed no URL")
        }

        var log: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

        /// POSTs `body` to `path` over a plain TCP connection and reads the answer to its end.
        func post(_ path: String, _ body: Data) throws -> (Int, Data) {
            let head = "POST /\(path) HTTP/1.1\r\nHost: \(url.host!):\(url.port!)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\n\r\n"
            return try exchange(Data(head.utf8) + body)
        }

        /// Sends `bytes` and returns the answer's status and body.
        func exchange(_ bytes: Data) throws -> (Int, Data) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(url.port!).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0, "connect: errno \(errno)")
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
            var answer = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                answer.append(contentsOf: buffer[0..<count])
            }
            let text = String(decoding: answer, as: UTF8.self)
            let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
            let body = answer.range(of: Data("\r\n\r\n".utf8)).map { answer[$0.upperBound...] } ?? Data()
            return (status, Data(body))
        }

        /// Stops the backend with SIGTERM, as a terminal's Ctrl-C or a supervisor would (the test
        /// runner starts it with SIGTERM blocked; the command unblocks it); SIGKILL after 5 s.
        /// - Returns: Whether SIGTERM alone stopped it.
        @discardableResult
        func stop() -> Bool {
            guard process.isRunning else { return true }
            process.terminate()
            for _ in 0..<500 where process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
            let stopped = !process.isRunning
            if !stopped { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return stopped
        }

        deinit {
            stop()
            try? FileManager.default.removeItem(at: errorFile)
        }
    }

    @Test("a request the backend makes for a challenge verifies; one with a mistake asked for fails, named; each is logged")
    func backendRequestVerifies() throws {
        let directory = try ProvisioningCommandTests.challenge()
        defer { try? FileManager.default.removeItem(at: directory) }
        let challenge = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("challenge.json")))
                                     as? [String: Any])
        let backend = try RunningBackend()
        for mistake in ["correct", "kdf-without-apple"] {
            let body = try JSONSerialization.data(withJSONObject: [
                "certificateChain": challenge["certificateChain"]!, "nonce": challenge["nonce"]!,
                "nonceSignature": challenge["nonceSignature"]!, "primaryAccountSuffix": "1005", "mistake": mistake])
            let (status, answer) = try backend.post("requests", body)
            #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
            let file = directory.appendingPathComponent("backend-\(mistake).json")
            try answer.write(to: file)
            let (run, report) = try ProvisioningCommandTests.verify(directory, file, suffix: "1005")
            let verification = try #require(report["verification"] as? [String: Any])
            if mistake == "correct" {
                #expect(run.status == 0, "\(run.standardOutput)")
                #expect(verification["status"] as? String == "verified")
            } else {
                #expect(run.status == 1)
                #expect(verification["variant"] as? String == mistake, "\(run.standardOutput)")
            }
        }
        let (status, answer) = try backend.post("requests", Data("{}".utf8))
        #expect(status == 400 && String(decoding: answer, as: UTF8.self).contains("certificateChain"))
        #expect(backend.log.contains("POST /requests 200") && backend.log.contains("POST /requests 400"), "\(backend.log)")
        #expect(backend.log.contains("stand-in for the bank's server"))
        #expect(backend.stop(), "SIGTERM did not stop the backend")
    }

    @Test("a request that is not HTTP, or too big, is answered with its status and the backend goes on")
    func hostileRequests() throws {
        let backend = try RunningBackend()
        let (tooBig, _) = try backend.post("requests", Data(count: 300 * 1024))
        #expect(tooBig == 413)
        let (status, _) = try backend.post("nowhere", Data("{}".utf8))
        #expect(status == 404)
        let (garbage, _) = try backend.exchange(Data("\u{1B}[2J hello\r\n\r\n".utf8))
        #expect(garbage == 400)
        #expect(backend.log.contains("refused 413") && backend.log.contains("POST /nowhere 404") && backend.log.contains("refused 400"),
                "\(backend.log)")
    }

    @Test("an address that is not numeric and a port out of range are refused, named")
    func badAddresses() throws {
        let host = try WalletHostCommand.run(["provisioning", "backend", "--listen", "localhost"])
        #expect(host.status != 0 && host.standardError.contains("localhost is not a numeric IPv4 address"), "\(host.standardError)")
        let port = try WalletHostCommand.run(["provisioning", "backend", "--port", "70000"])
        #expect(port.status != 0 && port.standardError.contains("--port must be 0 to 65535, not 70000"), "\(port.standardError)")
    }
}

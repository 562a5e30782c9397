import Foundation
import Testing
import WalletTestSupport

/// `wallet-host provisioning challenge|verify` against a third-party backend: the Python
/// issuer's `issuer_crypto.py`, written from the public description with Python's standard
/// library only (no OpenSSL). Each of its mistakes must be named.
@Suite("provisioning challenge and verify", .serialized, .enabled(if: Python3.isAvailable, "python3 is not on PATH"))
struct ProvisioningCommandTests {
    static let backend = BuildProducts.repositoryRoot.appendingPathComponent("Examples/PythonIssuer/issuer_crypto.py").path
    static let mistakes = ["x963-kdf", "kdf-without-apple", "kdf-ephemeral-key-first", "kdf-apple-first", "kdf-without-length-byte",
                           "16-byte-iv", "intermediate-key", "compressed-ephemeral-key-in-kdf", "hex-ephemeral-key-in-kdf",
                           "base64-ephemeral-key-in-kdf", "hex-pass-data", "base64-pass-data", "hex-ephemeral-key",
                           "base64-ephemeral-key"]

    /// A fresh challenge directory.
    static func challenge(scheme: String = "ECC_V2") throws -> URL {
        let directory = TemporaryDirectory.uniqueURL(prefix: "wallet-host-challenge")
        let run = try WalletHostCommand.run(["provisioning", "challenge", "--out", directory.path, "--scheme", scheme])
        #expect(run.status == 0, "\(run.standardError)")
        return directory
    }

    /// The request the Python backend makes for the challenge in `directory`, written to a file.
    static func request(_ directory: URL, pan: String = "4242424242424242", expiration: String = "11/39",
                        variant: String = "correct") throws -> URL {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Python3.path))
        process.arguments = [backend, directory.path, pan, expiration, "John Appleseed", variant]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let file = directory.appendingPathComponent("request-\(variant).json")
        try data.write(to: file)
        return file
    }

    static func verify(_ directory: URL, _ request: URL, suffix: String = "4242") throws -> (WalletHostRun, [String: Any]) {
        let run = try WalletHostCommand.run(["provisioning", "verify", "--challenge", directory.path, "--request", request.path,
                                             "--suffix", suffix, "--json"])
        return (run, try run.json())
    }

    @Test("challenge writes the chain, nonce and signature, and the keys 0600")
    func challengeFiles() throws {
        let directory = try Self.challenge()
        let challenge = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("challenge.json")))
                                     as? [String: Any])
        #expect((challenge["certificateChain"] as? [String])?.count == 2)
        #expect(challenge["nonce"] is String && challenge["nonceSignature"] is String)
        for key in ["leaf-key.pem", "intermediate-key.pem"] {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(key).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(key)")
        }
    }

    @Test("the Python backend's correct request verifies: exit 0, the card masked, nonce and signature matching")
    func correctRequestVerifies() throws {
        let directory = try Self.challenge()
        let (run, report) = try Self.verify(directory, try Self.request(directory))
        #expect(run.status == 0, "\(run.standardOutput)")
        let verification = try #require(report["verification"] as? [String: Any])
        #expect(verification["status"] as? String == "verified")
        let payload = try #require(verification["payload"] as? [String: Any])
        #expect(payload["primaryAccountNumber"] as? String == "•••• 4242")
        #expect(payload["nonceMatches"] as? Bool == true && payload["nonceSignatureMatches"] as? Bool == true)
        #expect(!run.standardOutput.contains("4242424242424242"))
    }

    @Test("each mistake of the Python backend is named", arguments: mistakes)
    func mistakeIsNamed(variant: String) throws {
        let directory = try Self.challenge()
        let (run, report) = try Self.verify(directory, try Self.request(directory, variant: variant))
        #expect(run.status == 1)
        let verification = try #require(report["verification"] as? [String: Any])
        #expect(verification["status"] as? String == "failed")
        #expect(verification["variant"] as? String == variant, "\(report)")
        #expect((report["problems"] as? [String])?.contains { $0.contains("(\(variant))") } == true, "\(report)")
    }

    @Test("a tampered tag, a wrong suffix and a PAN failing Luhn each fail, saying why")
    func failures() throws {
        let directory = try Self.challenge()
        let good = try Self.request(directory)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: good)) as? [String: Any])
        var sealed = try #require(Data(base64Encoded: object["encryptedPassData"] as? String ?? ""))
        sealed[sealed.count - 1] ^= 0x80
        object["encryptedPassData"] = sealed.base64EncodedString()
        let tampered = directory.appendingPathComponent("tampered.json")
        try JSONSerialization.data(withJSONObject: object).write(to: tampered)
        let (tamperedRun, tamperedReport) = try Self.verify(directory, tampered)
        #expect(tamperedRun.status == 1)
        #expect((tamperedReport["problems"] as? [String])?.first?.contains("any known variant") == true, "\(tamperedReport)")

        let (suffixRun, suffixReport) = try Self.verify(directory, good, suffix: "1111")
        #expect(suffixRun.status == 1)
        #expect((suffixReport["problems"] as? [String])?.contains { $0.contains("does not end with the entry's primaryAccountSuffix 1111") } == true)

        let (luhnRun, luhnReport) = try Self.verify(directory, try Self.request(directory, pan: "4242424242424241"), suffix: "4241")
        #expect(luhnRun.status == 1)
        #expect((luhnReport["problems"] as? [String])?.contains { $0.contains("•••• 4241 fails the Luhn check") } == true)
        #expect(!luhnRun.standardOutput.contains("4242424242424241"))
    }

    @Test("a request for another challenge (another nonce) is named: the nonce is not the one sent")
    func otherChallengesNonce() throws {
        let first = try Self.challenge()
        let second = try Self.challenge()
        // Encrypted for the first challenge's leaf, checked against the second's keys: the tag
        // cannot verify. Copy the first's keys over with the second's nonce instead.
        for key in ["leaf-key.pem", "intermediate-key.pem"] {
            try FileManager.default.removeItem(at: second.appendingPathComponent(key))
            try FileManager.default.copyItem(at: first.appendingPathComponent(key), to: second.appendingPathComponent(key))
        }
        let (run, report) = try Self.verify(second, try Self.request(first))
        #expect(run.status == 1)
        #expect((report["problems"] as? [String])?.contains { $0.contains("encryptedPassData.nonce") && $0.contains("is not the nonce Wallet sent") } == true,
                "\(report)")
    }
}

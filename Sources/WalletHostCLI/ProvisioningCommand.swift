import Foundation
import Wallet
import WalletHostRuntime
import WalletWire

/// `wallet-host provisioning challenge|verify|backend`: the add request's encryption for an
/// issuer's backend team, with no device and no extension, and a development stand-in for the
/// issuer's server (docs/PROVISIONING.md).
enum ProvisioningCommand {
    static let spec = CommandSpec(
        "provisioning",
        arguments: [.init(name: "challenge|verify|backend", help: """
            challenge: write DIR/challenge.json (certificateChain as base64 DER, leaf first; nonce; nonceSignature; \
            rootCertificate; scheme) and the private keys leaf-key.pem and intermediate-key.pem (0600), as Wallet \
            would hand them to the extension. verify: check a request JSON made for that challenge \
            (encryptedPassData, ephemeralPublicKey, activationData, wrappedKey, base64) exactly as add-card does: \
            decrypt ECC_V2, check the payload, and name the mistake when the tag does not verify. Exit status 1 \
            when the request fails. backend: serve a development stand-in for the issuer's server on loopback \
            (POST /requests: certificateChain, nonce, nonceSignature, primaryAccountSuffix, mistake -> an ECC_V2 \
            request for a made-up test card; GET /mistakes), one line per request on stderr, until interrupted.
            """)],
        summary: "Test an issuer backend's add-request encryption offline (challenge, verify), or stand in for it (backend).",
        options: [.valued("out", "DIR", help: "challenge: the directory to write (created when missing)."),
                  .valued("scheme", "ECC_V2|RSA_V2", help: "challenge: the encryption scheme of the leaf (default ECC_V2)."),
                  .valued("challenge", "DIR", help: "verify: the directory `provisioning challenge` wrote."),
                  .valued("request", "FILE", help: "verify: the request JSON."),
                  .valued("suffix", "DIGITS", help: "verify: the last digits the card number must end with (the entry's primaryAccountSuffix)."),
                  .valued("name", "TEXT", help: "verify: the entry's cardholderName; a payload name that differs is a warning."),
                  CommonOptions.json.withHelp("verify: print the verification as JSON (the card number masked)."),
                  .valued("listen", "ADDRESS", help: "backend: the numeric address to listen on (default 127.0.0.1; "
                          + "another address lets other machines ask for test requests)."),
                  .valued("port", "PORT", help: "backend: the TCP port (default 0: one the kernel picks, printed on stderr).")])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: spec)
        switch parsed.positionals.first {
        case "challenge":
            guard let out = parsed.value("out") else { throw UsageError("provisioning challenge needs --out DIR") }
            let scheme = parsed.value("scheme") ?? "ECC_V2"
            guard DevicePKI.schemes.contains(scheme) else {
                throw UsageError("--scheme must be ECC_V2 or RSA_V2, not \(scheme)")
            }
            let challenge = try ProvisioningChallenge.write(to: URL(fileURLWithPath: out), scheme: scheme)
            print("wrote \(out)/\(ProvisioningChallenge.fileName) (\(scheme): \(challenge.certificateChain.count) certificates, "
                  + "nonce \(challenge.nonce.map { String(format: "%02x", $0) }.joined())), "
                  + "\(ProvisioningChallenge.leafKeyFileName) and \(ProvisioningChallenge.intermediateKeyFileName)")
            return 0
        case "verify":
            guard let directory = parsed.value("challenge"), let requestPath = parsed.value("request") else {
                throw UsageError("provisioning verify needs --challenge DIR and --request FILE")
            }
            return try verify(challengeDirectory: URL(fileURLWithPath: directory), requestFile: URL(fileURLWithPath: requestPath),
                              suffix: parsed.value("suffix"), name: parsed.value("name"), json: parsed.has("json"))
        case "backend":
            return try serveBackend(listen: parsed.value("listen") ?? "127.0.0.1", port: parsed.value("port") ?? "0")
        case let other?:
            throw UsageError("provisioning takes challenge, verify or backend, not \"\(other)\"")
        case nil:
            throw UsageError("provisioning needs challenge, verify or backend")
        }
    }

    /// What `verify --json` prints.
    struct VerifyReport: Encodable {
        var passed: Bool
        var verification: PassDataVerification
        /// Every problem, the request's shape included, as `severity: field: problem`.
        var problems: [String]
    }

    private static func verify(challengeDirectory: URL, requestFile: URL, suffix: String?, name: String?, json: Bool) throws -> Int32 {
        let (challenge, verifier) = try ProvisioningChallenge.read(from: challengeDirectory)
        let request: AddPaymentPassRequestResult
        let data: Data
        do {
            data = try JSONSyntax.readFile(requestFile)
        } catch {
            throw CommandFailure("cannot read \(requestFile.path): \(error.localizedDescription)")
        }
        if let problem = JSONSyntax.problem(in: data) { throw CommandFailure("\(requestFile.path) is not valid JSON: \(problem)") }
        do {
            request = try JSONDecoder().decode(AddPaymentPassRequestResult.self, from: data)
        } catch let error as DecodingError {
            throw CommandFailure("\(requestFile.path): not a request JSON (encryptedPassData, ephemeralPublicKey, activationData, "
                                 + "base64): \(WireCodec.describe(error))")
        } catch {
            throw CommandFailure("cannot read \(requestFile.path): \(error.localizedDescription)")
        }
        var findings = AddPaymentPassRequestValidator().validate(request, encryptionScheme: challenge.scheme)
        let expectations = PassDataVerifier.Expectations(nonce: challenge.nonce, nonceSignature: challenge.nonceSignature,
                                                         primaryAccountSuffix: suffix, cardholderName: name)
        let verification = verifier.verify(request, expecting: expectations)
        findings += verification.findings
        let passed = !findings.containsErrors
        if json {
            printJSON(try JSONOutput.encode(VerifyReport(passed: passed, verification: verification, problems: findings.map(\.description))))
        } else {
            for finding in findings { print(finding) }
            print("\(passed ? "✔" : "✘") \(verification.summary)")
        }
        return passed ? 0 : 1
    }

    private static func serveBackend(listen: String, port portText: String) throws -> Int32 {
        guard let port = UInt16(portText) else { throw UsageError("--port must be 0 to 65535, not \(portText)") }
        let listener: TCPListener
        do {
            listener = try TCPListener.listen(host: listen, port: port)
        } catch {
            throw CommandFailure("cannot listen on \(listen) port \(port): \(error)")
        }
        defer { listener.close() }
        // Whoever started this may have blocked SIGINT and SIGTERM (a Swift `Process` started from
        // a dispatch thread does): the backend runs until one of them comes, so take them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        StandardError.write("development issuer backend on http://\(listener.authority) (POST /requests, GET /mistakes): "
                      + "a stand-in for the bank's server, with made-up test cards only\n")
        try DevelopmentBackendServer(listener: listener).serve { line in StandardError.write(line + "\n") }
        return 0
    }
}

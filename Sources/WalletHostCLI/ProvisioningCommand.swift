import Foundation
import Wallet
import WalletWire

/// `wallet-host provisioning challenge|verify`: the add request's encryption for an issuer's
/// backend team, with no device and no extension (docs/PROVISIONING.md).
enum ProvisioningCommand {
    static let spec = CommandSpec(
        "provisioning",
        arguments: [.init(name: "challenge|verify", help: """
            challenge: write DIR/challenge.json (certificateChain as base64 DER, leaf first; nonce; nonceSignature; \
            rootCertificate; scheme) and the private keys leaf-key.pem and intermediate-key.pem (0600), as Wallet \
            would hand them to the extension. verify: check a request JSON made for that challenge \
            (encryptedPassData, ephemeralPublicKey, activationData, wrappedKey, base64) exactly as add-card does: \
            decrypt ECC_V2, check the payload, and name the mistake when the tag does not verify. Exit status 1 \
            when the request fails.
            """)],
        summary: "Test an issuer backend's add-request encryption offline: write a challenge, verify a request made for it.",
        options: [.valued("out", "DIR", help: "challenge: the directory to write (created when missing)."),
                  .valued("scheme", "ECC_V2|RSA_V2", help: "challenge: the encryption scheme of the leaf (default ECC_V2)."),
                  .valued("challenge", "DIR", help: "verify: the directory `provisioning challenge` wrote."),
                  .valued("request", "FILE", help: "verify: the request JSON."),
                  .valued("suffix", "DIGITS", help: "verify: the last digits the card number must end with (the entry's primaryAccountSuffix)."),
                  .valued("name", "TEXT", help: "verify: the entry's cardholderName; a payload name that differs is a warning."),
                  CommonOptions.json.withHelp("verify: print the verification as JSON (the card number masked).")])

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
        case let other?:
            throw UsageError("provisioning takes challenge or verify, not \"\(other)\"")
        case nil:
            throw UsageError("provisioning needs challenge or verify")
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
        do {
            request = try JSONDecoder().decode(AddPaymentPassRequestResult.self, from: try Data(contentsOf: requestFile))
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
}

import Foundation
import WalletHostRuntime
import WalletWire

/// A stand-in for an issuer's server, for development only: given what Wallet hands the
/// extension (the certificate chain, nonce and nonce signature), it returns an `ECC_V2` add
/// request for a test card, encrypted as Apple's recipe says, or with one of the mistakes the
/// host names (``ECCV2Variant``) when asked. It holds no real card: each number is made up to
/// end with the suffix asked for and to pass the Luhn check.
///
/// Routes (JSON in and out; errors are `{"error": "..."}` naming the field):
/// - `POST /requests`: ``AddRequest`` -> ``AddRequestAnswer``.
/// - `GET /mistakes`: each mistake's name and what it does.
/// - `GET /`: what the backend serves.
public struct DevelopmentIssuerBackend: Sendable {
    /// What an extension sends: the fields of `generateRequestWithCertificateChain(_:nonce:nonceSignature:)`
    /// (base64), the card and, to see how the host names it, a mistake.
    public struct AddRequest: Decodable, Sendable {
        /// DER certificates, leaf first (base64 in JSON).
        public var certificateChain: [Data]
        public var nonce: Data
        public var nonceSignature: Data
        /// The digits the card number ends with: the entry's `primaryAccountSuffix` (default 4242).
        public var primaryAccountSuffix: String?
        public var cardholderName: String?
        /// `MM/YY` (default: December, four years from now).
        public var expiration: String?
        /// One of `GET /mistakes`' names; none or `correct` for Apple's recipe.
        public var mistake: String?
    }

    /// The request Wallet expects back: `PKAddPaymentPassRequest`'s fields, base64 in JSON.
    public struct AddRequestAnswer: Encodable, Sendable {
        public var encryptedPassData: Data
        public var ephemeralPublicKey: Data
        public var activationData: Data
    }

    /// Makes the backend.
    public init() {}

    /// The answer to `request`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("POST", "/requests"): return addRequest(request.body)
        case ("GET", "/mistakes"):
            return .json(ECCV2Variant.allCases.filter { $0 != .correct }.map { ["name": $0.rawValue, "does": $0.mistake] })
        case ("GET", "/"):
            return .json(["POST /requests": "certificateChain, nonce, nonceSignature (base64), primaryAccountSuffix, "
                          + "cardholderName, expiration, mistake -> encryptedPassData, ephemeralPublicKey, activationData",
                          "GET /mistakes": "the mistakes POST /requests can make on purpose"])
        case (_, "/requests"), (_, "/mistakes"), (_, "/"):
            var response = HTTPResponse.error(405, "\(request.method) \(request.path) is not served: see GET /")
            response.headers.append(("Allow", request.path == "/requests" ? "POST" : "GET"))
            return response
        default:
            return .error(404, "\(request.path) is not served: POST /requests, GET /mistakes, GET /")
        }
    }

    private func addRequest(_ body: Data) -> HTTPResponse {
        let request: AddRequest
        do {
            request = try JSONDecoder().decode(AddRequest.self, from: body)
        } catch let error as DecodingError {
            return .error(400, "the body is not an add request: \(WireCodec.describe(error))")
        } catch {
            return .error(400, "the body is not JSON: \(error)")
        }
        let mistakeName = request.mistake ?? ECCV2Variant.correct.rawValue
        guard let variant = ECCV2Variant(rawValue: mistakeName) else {
            return .error(400, "mistake: \(mistakeName) is not one of \(ECCV2Variant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let suffix = request.primaryAccountSuffix ?? "4242"
        guard let number = Self.testCardNumber(endingWith: suffix) else {
            return .error(400, "primaryAccountSuffix: \(suffix.prefix(20)) is not 1 to 12 digits")
        }
        let payload = ProvisioningPayload(primaryAccountNumber: number,
                                          expiration: request.expiration ?? Self.defaultExpiration(),
                                          name: request.cardholderName ?? "Test Cardholder",
                                          nonce: request.nonce, nonceSignature: request.nonceSignature)
        do {
            let sealed = try variant.seal(try payload.json(), certificateChain: request.certificateChain)
            return .json(AddRequestAnswer(encryptedPassData: sealed.encryptedPassData, ephemeralPublicKey: sealed.ephemeralPublicKey,
                                          activationData: Data("activation-\(suffix)".utf8)))
        } catch {
            return .error(422, "certificateChain: cannot encrypt for it: \(error)")
        }
    }

    /// A 16-digit number that ends with `suffix` and passes the Luhn check (the digit before the
    /// suffix is chosen to make it pass); nil when `suffix` is not 1 to 12 digits.
    public static func testCardNumber(endingWith suffix: String) -> String? {
        guard (1...12).contains(suffix.count), suffix.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let filler = String(repeating: "0", count: 16 - 2 - suffix.count)
        for adjusting in 0...9 {
            let candidate = "4" + filler + String(adjusting) + suffix
            if PayloadReport.passesLuhn(candidate) { return candidate }
        }
        return nil
    }

    private static func defaultExpiration() -> String {
        let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 4
        return "12/\(String(format: "%02d", year % 100))"
    }
}

/// The plaintext of an `ECC_V2` payload, as Wallet's servers read it (docs/PROVISIONING.md).
struct ProvisioningPayload: Encodable {
    var primaryAccountNumber: String
    var expiration: String
    var name: String
    /// Hex, as the verifier and Apple's servers expect.
    var nonce: String
    var nonceSignature: String

    init(primaryAccountNumber: String, expiration: String, name: String, nonce: Data, nonceSignature: Data) {
        self.primaryAccountNumber = primaryAccountNumber
        self.expiration = expiration
        self.name = name
        self.nonce = TextBytes.hexString(nonce)
        self.nonceSignature = TextBytes.hexString(nonceSignature)
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}

import Foundation

// Written as on iOS: this file imports Foundation only and uses URLSession. Off Apple platforms
// URLSession lives in FoundationNetworking; the target's `-import-module FoundationNetworking`
// (Package.swift, as docs/SDK.md shows) makes every file see it, unchanged.

/// A card as the issuer's backend lists it.
struct BackendCard: Decodable {
    let id: String
    let title: String
    let suffix: String
    let cardholder: String
}

/// The add request's fields as the backend returns them (base64).
struct BackendAddRequest: Decodable {
    let activationData: String
    let encryptedPassData: String
    let ephemeralPublicKey: String
}

/// The issuer's backend over HTTPS (HTTP to the local stand-in in the tests).
final class IssuerBackendClient: Sendable {
    let baseURL: URL
    private let session: URLSession

    init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    enum BackendError: Error {
        case status(Int)
        case noData
    }

    /// GET /cards.
    func cards(completion: @escaping @Sendable (Result<[BackendCard], Error>) -> Void) {
        let task = session.dataTask(with: baseURL.appendingPathComponent("cards")) { data, response, error in
            completion(Self.decode([BackendCard].self, data, response, error))
        }
        task.resume()
    }

    /// POST /provision with the card, Wallet's nonce and signature, and the certificates to encrypt for.
    func addRequest(cardID: String, nonce: Data, nonceSignature: Data, certificates: [Data]) async throws -> BackendAddRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent("provision"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body: [String: Any] = ["card": cardID, "nonce": nonce.base64EncodedString(),
                                   "nonceSignature": nonceSignature.base64EncodedString(),
                                   "certificates": certificates.map { $0.base64EncodedString() }]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await session.data(for: request)
        return try Self.decode(BackendAddRequest.self, data, response, nil).get()
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ data: Data?, _ response: URLResponse?,
                                                 _ error: Error?) -> Result<Value, Error> {
        if let error { return .failure(error) }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 { return .failure(BackendError.status(http.statusCode)) }
        guard let data else { return .failure(BackendError.noData) }
        return Result { try JSONDecoder().decode(Value.self, from: data) }
    }
}

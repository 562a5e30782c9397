import Foundation

extension NewPackageTemplate {
    /// The client of the bank's server: `wallet-host provisioning backend` while developing (docs/PROVISIONING.md).
    var bankServer: String {
        """
        import Foundation
        import PassKit

        /// The bank's server: only it knows the card numbers, and it encrypts the chosen card for the
        /// device's certificate. While you develop, `wallet-host provisioning backend` stands in for it
        /// (README.md): its URL is `DevelopmentBackendURL` in this extension's Info.plist. Point it at your
        /// own server's test environment when you have one.
        struct BankServer: Sendable {
            let url: URL

            /// From `DevelopmentBackendURL` in the extension's Info.plist.
            static var fromInfoPlist: BankServer? {
                (Bundle.main.object(forInfoDictionaryKey: "DevelopmentBackendURL") as? String)
                    .flatMap(URL.init(string:)).map(BankServer.init(url:))
            }

            struct Failure: Error, CustomStringConvertible {
                let description: String
            }

            /// What Wallet handed the extension, base64, and the card's last digits and holder.
            private struct Body: Encodable {
                var certificateChain: [String]
                var nonce: String
                var nonceSignature: String
                var primaryAccountSuffix: String
                var cardholderName: String
            }

            /// The request's fields as the server returns them, base64.
            private struct Answer: Decodable {
                var encryptedPassData: String
                var ephemeralPublicKey: String
                var activationData: String
            }

            /// POST /requests: the card encrypted for the leaf of `certificateChain` (ECC_V2).
            func addRequest(for card: Card, certificateChain: [Data], nonce: Data, nonceSignature: Data) async throws -> PKAddPaymentPassRequest {
                var request = URLRequest(url: url.appendingPathComponent("requests"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = try JSONEncoder().encode(Body(
                    certificateChain: certificateChain.map { $0.base64EncodedString() }, nonce: nonce.base64EncodedString(),
                    nonceSignature: nonceSignature.base64EncodedString(), primaryAccountSuffix: card.suffix, cardholderName: card.cardholder))
                let (data, response) = try await URLSession.shared.data(for: request)
                guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
                    throw Failure(description: "\\(url): \\(String(decoding: data, as: UTF8.self))")
                }
                let answer = try JSONDecoder().decode(Answer.self, from: data)
                guard let passData = Data(base64Encoded: answer.encryptedPassData), let key = Data(base64Encoded: answer.ephemeralPublicKey),
                      let activation = Data(base64Encoded: answer.activationData) else {
                    throw Failure(description: "\\(url): an answer that is not base64")
                }
                let addRequest = PKAddPaymentPassRequest()
                addRequest.encryptedPassData = passData
                addRequest.ephemeralPublicKey = key
                addRequest.activationData = activation
                return addRequest
            }
        }

        """
    }

    /// Whether an Apple Watch is paired, with the session activated first (as the Wallet Extensions guide does).
    var pairedWatch: String {
        """
        import Dispatch
        import WatchConnectivity

        /// Whether an Apple Watch is paired: what the handler asks (tests give their own).
        protocol WatchPairing {
            var isPaired: Bool { get }
        }

        /// Whether the iPhone has a paired Apple Watch, for the cards Wallet can add to it (remote pass entries).
        final class PairedWatch: NSObject, WCSessionDelegate, WatchPairing, @unchecked Sendable {
            private let session = WCSession.default
            /// Activation completes on another queue, on a device too: status waits for it a little.
            private let activated = DispatchSemaphore(value: 0)

            override init() {
                super.init()
                if WCSession.isSupported() {
                    session.delegate = self
                    session.activate()
                }
            }

            var isPaired: Bool {
                if session.activationState != .activated {
                    _ = activated.wait(timeout: .now() + .milliseconds(30))
                }
                return session.activationState == .activated && session.isPaired
            }

            func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
                activated.signal()
            }

            func sessionDidBecomeInactive(_ session: WCSession) {}

            func sessionDidDeactivate(_ session: WCSession) {
                session.activate()
            }
        }

        """
    }
}

import Foundation

/// The PKI as `provisioning.json` in the state directory stores it: certificates as base64
/// DER, private keys as PKCS #8 PEM. The file is 0600 and written atomically under the
/// directory's lock, like every state file.
struct StoredPKI: Codable, Sendable {
    struct StoredIdentity: Codable, Sendable {
        var certificate: Data
        var privateKey: String
    }

    var root: StoredIdentity?
    var intermediate: StoredIdentity?
    var deviceKey: String?
    var leaves: [String: StoredIdentity] = [:]
}

extension StateDirectory {
    /// The simulated device's test PKI (``DevicePKI``): certificates and private keys.
    public var provisioningURL: URL { url.appendingPathComponent("provisioning.json") }
}

extension DevicePKI {
    /// The device's PKI from its state directory, made on first use, with a leaf for `scheme`
    /// (made when missing). Several hosts sharing the directory get the same PKI: it is made
    /// and written under the directory's lock.
    /// - Throws: ``StateError`` naming `provisioning.json` when it cannot be read or written,
    ///   ``CryptoError`` when a key cannot be made or read.
    public static func load(from state: StateDirectory, scheme: String) throws -> DevicePKI {
        let file = state.provisioningURL
        if let stored = try? state.read(StoredPKI.self, from: file, empty: StoredPKI()),
           let pki = try? DevicePKI(stored: stored, file: file), pki.leaves[scheme] != nil {
            return pki
        }
        var loaded: DevicePKI?
        try state.update(StoredPKI.self, in: file, empty: StoredPKI()) { stored in
            var pki: DevicePKI
            if stored.root == nil {
                pki = try DevicePKI.generate(schemes: [])
            } else {
                pki = try DevicePKI(stored: stored, file: file)
            }
            if pki.leaves[scheme] == nil { try pki.addLeaf(for: scheme) }
            stored = try pki.stored()
            loaded = pki
        }
        return loaded!
    }

    init(stored: StoredPKI, file: URL) throws {
        func identity(_ value: StoredPKI.StoredIdentity?, _ name: String) throws -> Identity {
            guard let value else { throw StateError("cannot read the provisioning keys \(file.path): no \(name)") }
            return Identity(certificate: value.certificate,
                            key: try CryptoKey.privateKey(pem: Data(value.privateKey.utf8), name: "the \(name)'s key in \(file.path)"))
        }
        guard let deviceKey = stored.deviceKey else { throw StateError("cannot read the provisioning keys \(file.path): no deviceKey") }
        self.init(root: try identity(stored.root, "root"), intermediate: try identity(stored.intermediate, "intermediate"),
                  leaves: try stored.leaves.mapValues { try identity($0, "leaf") },
                  deviceKey: try CryptoKey.privateKey(pem: Data(deviceKey.utf8), name: "the device key in \(file.path)"))
    }

    func stored() throws -> StoredPKI {
        func identity(_ value: Identity) throws -> StoredPKI.StoredIdentity {
            StoredPKI.StoredIdentity(certificate: value.certificate, privateKey: String(decoding: try value.key.pem(), as: UTF8.self))
        }
        return StoredPKI(root: try identity(root), intermediate: try identity(intermediate),
                         deviceKey: String(decoding: try deviceKey.pem(), as: UTF8.self), leaves: try leaves.mapValues(identity))
    }
}

import Foundation
import Testing
import Wallet
import WalletTestSupport
import WalletWire

@Suite("Provisioning material")
struct ProvisioningMaterialTests {
    static let pki = Result { try DevicePKI.generate() }

    @Test("the chain is leaf then intermediate, and OpenSSL's own tool verifies it to the root, with the marker extension and key usage",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "/usr/bin/openssl is not installed"),
          arguments: ["ECC_V2", "RSA_V2"])
    func chainVerifiesToTheRoot(scheme: String) throws {
        let pki = try Self.pki.get()
        let material = try ProvisioningMaterial(issuedBy: pki, scheme: scheme)
        #expect(material.certificateChain.count == 2)
        let directory = TemporaryDirectory.uniqueURL(prefix: "wallet-host-pki")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = ["leaf.der": material.certificateChain[0], "intermediate.der": material.certificateChain[1], "root.der": pki.root.certificate]
        for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
        for name in files.keys {
            let der = directory.appendingPathComponent(name).path
            _ = try Self.openssl(["x509", "-inform", "DER", "-in", der, "-out", der + ".pem"])
        }
        let verified = try Self.openssl(["verify", "-CAfile", directory.path + "/root.der.pem", "-untrusted", directory.path + "/intermediate.der.pem",
                                         directory.path + "/leaf.der.pem"])
        #expect(verified.contains("OK"), "\(verified)")
        let text = try Self.openssl(["x509", "-in", directory.path + "/leaf.der.pem", "-noout", "-text"])
        #expect(text.contains(DevicePKI.leafMarkerOID), "\(text)")
        #expect(text.contains(scheme == "ECC_V2" ? "Key Agreement" : "Key Encipherment"), "\(text)")
        #expect(text.contains(scheme == "ECC_V2" ? "prime256v1" : "2048 bit"), "\(text)")
    }

    @Test("the nonce is fresh for every card and the device key's signature verifies over it")
    func nonceAndSignature() throws {
        let pki = try Self.pki.get()
        let materials = try (0..<20).map { _ in try ProvisioningMaterial(issuedBy: pki, scheme: "ECC_V2") }
        #expect(Set(materials.map(\.nonce)).count == 20)
        for material in materials {
            #expect(material.nonce.count == ProvisioningMaterial.nonceLength)
            #expect(pki.deviceKey.verifies(material.nonceSignature, of: material.nonce))
            #expect(!pki.deviceKey.verifies(material.nonceSignature, of: material.nonce + Data([0])))
        }
    }

    @Test("the PKI is kept in the state directory (0600, one file) and the same one comes back; a new scheme adds a leaf")
    func keptInState() throws {
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-pki-state"))
        let first = try DevicePKI.load(from: state, scheme: "ECC_V2")
        let again = try DevicePKI.load(from: state, scheme: "ECC_V2")
        #expect(first.leaves["ECC_V2"]?.certificate == again.leaves["ECC_V2"]?.certificate)
        #expect(first.root.certificate == again.root.certificate)
        let withRSA = try DevicePKI.load(from: state, scheme: "RSA_V2")
        #expect(withRSA.leaves["ECC_V2"]?.certificate == first.leaves["ECC_V2"]?.certificate)
        #expect(withRSA.leaves["RSA_V2"] != nil)
        let mode = try FileManager.default.attributesOfItem(atPath: state.provisioningURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    private static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}

import Foundation
import Testing
import Wallet
import WalletTestSupport
import WalletWire

@Suite("Provisioning material")
struct ProvisioningMaterialTests {
    @Test("two DER-shaped certificates, leaf first, each a SEQUENCE whose length covers the rest")
    func certificateChain() {
        let material = ProvisioningMaterial()
        #expect(material.certificateChain.count == 2)
        for (certificate, contentLength) in zip(material.certificateChain, ProvisioningMaterial.certificateContentLengths) {
            let bytes = [UInt8](certificate)
            #expect(bytes.prefix(2) == [0x30, 0x82])
            #expect(Int(bytes[2]) << 8 | Int(bytes[3]) == bytes.count - 4)
            #expect(bytes.count - 4 == contentLength)
        }
        #expect(material.certificateChain[0].count < material.certificateChain[1].count, "the leaf is the smaller, first certificate")
    }

    @Test("a 4-byte nonce and a 64-byte nonce signature")
    func sizes() {
        let material = ProvisioningMaterial()
        #expect(material.nonce.count == 4)
        #expect(material.nonceSignature.count == 64)
    }

    @Test("fresh for every card: no two of twenty share a certificate, nonce or signature")
    func freshPerCall() {
        let materials = (0..<20).map { _ in ProvisioningMaterial() }
        #expect(Set(materials.flatMap(\.certificateChain)).count == 40)
        #expect(Set(materials.map(\.nonceSignature)).count == 20)
        // 4-byte nonces can collide by chance (about 1 in 10 million for 20); leaf certificates cannot in practice.
        #expect(Set(materials.map(\.nonce)).count >= 19)
    }

    @Test("the same seeded generator gives the same material; request params carry it with the entry")
    func seededAndParams() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        let material = ProvisioningMaterial(using: &first)
        #expect(material == ProvisioningMaterial(using: &second))
        let entry = PassEntryFixtures.validEntry()
        let params = material.requestParams(for: entry)
        #expect(params.identifier == entry.identifier)
        #expect(params.configuration == entry.addRequestConfiguration)
        #expect(params.certificateChain == material.certificateChain)
        #expect(params.nonce == material.nonce)
        #expect(params.nonceSignature == material.nonceSignature)
    }
}

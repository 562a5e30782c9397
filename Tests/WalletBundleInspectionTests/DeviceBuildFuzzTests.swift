import DeviceBuildFixtures
import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport

/// Damaged device builds never crash or hang the validator: seeded byte flips and truncations
/// of a good `.ipa`, stored (so the flips land in Mach-O headers, signatures, plists and CMS)
/// and deflated (so they land in zip structures and deflate streams).
@Suite("device build fuzzing", .timeLimit(.minutes(2)))
struct DeviceBuildFuzzTests {
    static func storedIPA() throws -> Data {
        var writer = ZipWriter()
        for (path, contents) in try IssuerBuildFixture.myIssuer().files() {
            writer.entries.append(.init(name: "Payload/\(path)", contents: contents, deflated: false))
        }
        return writer.archive()
    }

    @Test("800 damaged archives each give findings with a check and a sentence", arguments: [UInt64(11), 12])
    func damagedArchives(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("Damaged.ipa")
        let originals = [try Self.storedIPA(), try IssuerBuildFixture.myIssuer().ipa()]
        var generator = SeededGenerator(seed: seed)
        var damaged = 0
        for round in 0..<400 {
            var bytes = originals[round % 2]
            if Int.random(in: 0..<8, using: &generator) == 0 {
                bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))
            } else {
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            try bytes.write(to: url)
            let (findings, _) = DeviceBuildValidator.wallet().validate(ipa: url)
            damaged += findings.isEmpty ? 0 : 1
            #expect(findings.allSatisfy { $0.check != nil && !$0.problem.isEmpty }, "seed \(seed) round \(round)")
        }
        // Most damage is noticed; a flip inside unread bytes (padding, a comment) is not.
        #expect(damaged > 200)
    }
}

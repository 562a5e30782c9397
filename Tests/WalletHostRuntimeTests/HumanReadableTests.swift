import Foundation
import Testing
@testable import ExtensionModel

/// The one-decimal numbers of the host's sentences, written without `String(format:)`.
@Suite("HumanReadable")
struct HumanReadableTests {
    @Test("one decimal is what %.1f writes, for durations and sizes of every magnitude")
    func oneDecimalIsPrintf() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [Double] = [0, 0.04, 0.05, 0.25, 0.35, 0.45, 0.95, 1, 9.95, 22.481251, 99.95, 0.943534, 999.9, -0.3, -2.25]
        let random = (0..<20_000).map { _ in Double.random(in: 0..<1000, using: &generator) }
            + (0..<2000).map { _ in Double(Int.random(in: 0..<100_000, using: &generator)) / 1000 }
        let mismatches = (fixed + random).filter { HumanReadable.oneDecimal($0) != String(format: "%.1f", $0) }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { "\($0): \(HumanReadable.oneDecimal($0)) vs \(String(format: "%.1f", $0))" })")
        #expect(HumanReadable.milliseconds(0.943534) == "0.9 ms")
        #expect(HumanReadable.milliseconds(1500) == "1.5 s")
        #expect(HumanReadable.megabytes(10_066_330) == "9.6 MB")
    }
}

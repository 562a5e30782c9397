import Foundation
import Testing
@testable import WalletExtensionKit

/// Card art sizes come from the PNG's IHDR chunk.
struct PNGHeaderTests {
    /// The repository root, found from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func png(width: UInt32, height: UInt32, firstChunk: String = "IHDR", length: UInt32 = 13) -> Data {
        var data = Data(PNGHeader.signature)
        for value in [length] { data.append(contentsOf: withUnsafeBytes(of: value.bigEndian, Array.init)) }
        data.append(contentsOf: Array(firstChunk.utf8))
        for value in [width, height] { data.append(contentsOf: withUnsafeBytes(of: value.bigEndian, Array.init)) }
        data.append(contentsOf: [8, 6, 0, 0, 0, 0, 0, 0, 0])
        return data
    }

    @Test(arguments: ["card-ocean", "card-forest", "card-graphite"])
    func theSampleArtIsWalletSized(name: String) throws {
        let url = Self.repository.appendingPathComponent("Examples/SampleIssuer/Art/\(name).png")
        let image = try #require(CGImage(contentsOf: url))
        #expect(image.width == 1536)
        #expect(image.height == 969)
        #expect(image.bitsPerComponent == 8)
        #expect(image.pngData.count < 4_000_000)
    }

    @Test func theHeaderGivesWidthHeightDepthAndColorType() {
        let header = PNGHeader(Self.png(width: 1536, height: 969))
        #expect(header?.width == 1536)
        #expect(header?.height == 969)
        #expect(header?.bitDepth == 8)
        #expect(header?.colorType == 6)
    }

    @Test func notAPNGIsRefused() {
        #expect(CGImage(pngData: Data("GIF89a, not a PNG at all, long enough to parse".utf8)) == nil)
        #expect(CGImage(pngData: Self.png(width: 1536, height: 969).prefix(20)) == nil)
        #expect(CGImage(pngData: Self.png(width: 0, height: 969)) == nil)
        #expect(CGImage(pngData: Self.png(width: 1536, height: 969, firstChunk: "IDAT")) == nil)
        #expect(CGImage(pngData: Self.png(width: 1536, height: 969, length: 12)) == nil)
        #expect(CGImage(contentsOf: URL(fileURLWithPath: "/nonexistent.png")) == nil)
    }
}

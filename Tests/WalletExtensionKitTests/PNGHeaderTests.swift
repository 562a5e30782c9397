import Foundation
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletTestSupport

/// Card art sizes come from the PNG's IHDR chunk.
struct PNGHeaderTests {
    @Test(arguments: ["card-ocean", "card-forest", "card-graphite"])
    func theSampleArtIsWalletSized(name: String) throws {
        let url = BuildProducts.repositoryRoot.appendingPathComponent("Examples/SampleIssuer/Art/\(name).png")
        let image = try #require(UIImage(contentsOfFile: url.path)?.cgImage)
        #expect(image.width == 1536)
        #expect(image.height == 969)
        #expect(image.bitsPerComponent == 8)
        #expect(image.pngData.count < 4_000_000)
    }

    @Test func theHeaderGivesWidthHeightDepthAndColorType() {
        let header = PNGHeader(TestPNG.header(width: 1536, height: 969))
        #expect(header?.width == 1536)
        #expect(header?.height == 969)
        #expect(header?.bitDepth == 8)
        #expect(header?.colorType == 6)
    }

    @Test func notAPNGIsRefused() {
        #expect(CGImage(pngData: Data("GIF89a, not a PNG at all, long enough to parse".utf8)) == nil)
        #expect(CGImage(pngData: TestPNG.header(width: 1536, height: 969).prefix(20)) == nil)
        #expect(CGImage(pngData: TestPNG.header(width: 0, height: 969)) == nil)
        #expect(CGImage(pngData: TestPNG.header(width: 1536, height: 969, chunkType: "IDAT")) == nil)
        #expect(CGImage(pngData: TestPNG.header(width: 1536, height: 969, declaredLength: 12)) == nil)
        #expect(UIImage(contentsOfFile: "/nonexistent.png") == nil)
    }
}

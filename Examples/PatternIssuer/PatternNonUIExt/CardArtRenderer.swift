import ImageIO
import UIKit

/// Placeholder card art drawn in code, as issuers do before their designs arrive: a colored
/// card with a white band and a framed chip, 1536 x 969 pixels (512 x 323 points at 3x).
enum CardArtRenderer {
    static func art(color: UIColor) -> CGImage? {
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 512, height: 323))
        let image = renderer.image { context in
            color.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 512, height: 323))
            UIColor.white.withAlphaComponent(0.85).setFill()
            context.fill(CGRect(x: 0, y: 250, width: 512, height: 40))
            context.cgContext.setStrokeColor(UIColor.systemYellow.cgColor)
            context.cgContext.setLineWidth(4)
            context.cgContext.stroke(CGRect(x: 40, y: 100, width: 70, height: 54))
        }
        // Read back through ImageIO, as art loaded from a server would be.
        guard let png = image.pngData(), let source = CGImageSourceCreateWithData(png as CFData, nil) else { return nil }
        return CGImageSourceCreateImageAtIndex(source, 0, nil)
    }
}

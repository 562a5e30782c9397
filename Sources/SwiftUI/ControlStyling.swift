/// A SwiftUI button's view: sized by its label's layout when the label has one
/// (`Text("Log In").frame(maxWidth: .infinity)` makes the button as wide as it is offered).
final class SwiftUIButton: UIButton {
    /// The label's laid-out view (a frame, padding or stack around its text), measured, not shown.
    var labelLayout: UIView?
}

extension UIButton {
    /// Styles a SwiftUI button from the environment: its label's font (body) and the tint
    /// (`.borderedProminent` fills with it, `.bordered` greys), the image of an image label.
    func style(as environment: EnvironmentValues, labelViews: [UIView]) {
        if let look = environment.buttonLook, look != .plain {
            var configuration = UIButton.Configuration.plain()
            configuration.look = look
            configuration.baseBackgroundColor = environment.tint?.uiColor
            self.configuration = configuration
        }
        titleLabel?.font = labelViews.flatMap(\.labelsInside).first?.font ?? (environment.font ?? .body).uiFont
        if let tint = environment.tint ?? environment.foregroundColor { tintColor = tint.uiColor }
        if let image = labelViews.lazy.compactMap({ $0.firstImageView?.image }).first { setImage(image, for: .normal) }
    }
}

extension UIView {
    /// The first image view in this view's tree, itself included.
    var firstImageView: UIImageView? {
        (self as? UIImageView) ?? subviews.lazy.compactMap(\.firstImageView).first
    }
}

extension UIView {
    /// This view and every view under it, depth first.
    var viewsInside: [UIView] { [self] + subviews.flatMap(\.viewsInside) }
}

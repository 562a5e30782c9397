/// The UI extension's screen as it laid it out: a tree of views with frames in points.
///
/// Sent as the optional `screen` member of `ui.prompt` (``UIPromptParams/screen``) beside the
/// form (`fields`, `actions`), which stays the contract for scripts and the terminal. A page
/// draws the tree at ``size``; a tap on a view with an ``ViewNode/action`` answers the prompt
/// with that action, text typed into a view with a ``ViewNode/field`` is that field's value.
public struct ScreenTree: Codable, Sendable, Hashable {
    /// The device's screen in points (an iPhone 15 is 390 x 844).
    public var size: ViewNode.Size
    /// The controller's root view, at (0, 0) of the screen.
    public var root: ViewNode

    public init(size: ViewNode.Size, root: ViewNode) {
        self.size = size
        self.root = root
    }
}

/// One view of a ``ScreenTree``. Every member but ``kind`` and ``frame`` is optional and left
/// out of the JSON when it has its default.
public struct ViewNode: Codable, Sendable, Hashable {
    /// What a view is, as far as drawing and touching it go.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// A plain container (UIView, a SwiftUI stack or background).
        case view
        /// Text (UILabel, SwiftUI Text).
        case label
        /// Something tapped (UIButton, SwiftUI Button, a tappable image).
        case button
        /// Editable text (UITextField, TextField, SecureField when ``ViewNode/secure``).
        case textField
        /// An on/off switch (UISwitch, Toggle); ``ViewNode/isOn`` holds its state.
        case toggle
        /// A picture (UIImageView, Image): ``ViewNode/image``.
        case image
        /// A drawn shape (Rectangle, Capsule, a layer with a fill): colours and corner radius.
        case shape
        /// A scrolling container; children are laid out in its content coordinates.
        case scroll
        /// An activity indicator or progress view.
        case progress
    }

    /// A size in points.
    public struct Size: Codable, Sendable, Hashable {
        public var width: Double
        public var height: Double
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// A rectangle in points, in the parent view's coordinates.
    public struct Frame: Codable, Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// A font: point size and weight (`regular`, `medium`, `semibold`, `bold`, ...).
    public struct Font: Codable, Sendable, Hashable {
        public var size: Double
        public var weight: String
        public init(size: Double, weight: String = "regular") {
            self.size = size
            self.weight = weight
        }
    }

    /// A picture: PNG bytes (base64 in JSON) or an SF Symbol name, never both.
    public struct Image: Codable, Sendable, Hashable {
        /// PNG bytes, base64-encoded on the wire.
        public var png: String?
        /// An SF Symbol name such as `faceid`, drawn by the page as it can.
        public var symbol: String?
        public init(png: String? = nil, symbol: String? = nil) {
            self.png = png
            self.symbol = symbol
        }
    }

    /// A shadow behind the view: its colour (`#RRGGBBAA`, the shadow's opacity in the alpha),
    /// blur radius and offset in points.
    public struct Shadow: Codable, Sendable, Hashable {
        public var color: String
        public var radius: Double
        public var x: Double
        public var y: Double
        public init(color: String, radius: Double, x: Double, y: Double) {
            self.color = color
            self.radius = radius
            self.x = x
            self.y = y
        }
    }

    /// A linear gradient filling the view: colours (`#RRGGBBAA`) evenly spaced from `start` to
    /// `end`, points in the view's unit square (0,0 top left, 1,1 bottom right).
    public struct Gradient: Codable, Sendable, Hashable {
        public var colors: [String]
        public var start: UnitPoint
        public var end: UnitPoint
        public init(colors: [String], start: UnitPoint, end: UnitPoint) {
            self.colors = colors
            self.start = start
            self.end = end
        }
    }

    /// A point in a view's unit square.
    public struct UnitPoint: Codable, Sendable, Hashable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public var kind: Kind
    public var frame: Frame
    /// A label's or button's text, a text field's current text.
    public var text: String?
    /// A text field's placeholder.
    public var placeholder: String?
    public var font: Font?
    /// `left`, `center`, `right` or `natural`.
    public var textAlignment: String?
    /// Colours as `#RRGGBBAA`.
    public var textColor: String?
    public var backgroundColor: String?
    public var tintColor: String?
    public var borderColor: String?
    public var borderWidth: Double?
    public var cornerRadius: Double?
    public var image: Image?
    /// The view's opacity, 0 to 1 (its children drawn within it); absent means opaque.
    public var opacity: Double?
    public var shadow: Shadow?
    /// A gradient drawn over the background colour.
    public var gradient: Gradient?
    public var accessibilityLabel: String?
    public var accessibilityIdentifier: String?
    /// False for a disabled control; absent means enabled.
    public var enabled: Bool?
    /// True for a password field.
    public var secure: Bool?
    /// True for a hidden view (the page does not draw it or its children).
    public var hidden: Bool?
    /// A toggle's state.
    public var isOn: Bool?
    /// The form field this view edits: one of the prompt's `fields[].name`.
    public var field: String?
    /// The form action a tap on this view answers: one of the prompt's `actions`.
    public var action: String?
    public var children: [ViewNode]?

    public init(kind: Kind, frame: Frame, children: [ViewNode]? = nil) {
        self.kind = kind
        self.frame = frame
        self.children = children
    }
}

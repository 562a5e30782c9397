import Foundation

/// A button (`UIButton`): while enabled and visible it is an action of the form, by its title;
/// the user agent choosing it taps it, which runs its `touchUpInside` and primary actions.
@preconcurrency @MainActor
open class UIButton: UIControl {
    /// The kind of button (`UIButton.ButtonType`).
    public enum ButtonType: Int, Sendable {
        case custom = 0, system, detailDisclosure, infoLight, infoDark, contactAdd, close
        public static var roundedRect: ButtonType { .system }
    }

    /// The button's type.
    public let buttonType: ButtonType
    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private var images: [UInt: UIImage] = [:]
    /// The label showing the title (not a subview, so not read separately into the form).
    public let titleLabel: UILabel? = UILabel()
    /// The image view (kept).
    public let imageView: UIImageView? = UIImageView()
    /// The iOS 15 configuration; its title, when set, is the button's title.
    open var configuration: Configuration? { didSet { screenDidChange() } }
    /// Called to update the configuration (kept; called once when set).
    open var configurationUpdateHandler: ((UIButton) -> Void)? { didSet { configurationUpdateHandler?(self) } }
    /// Kept.
    open var contentEdgeInsets = UIEdgeInsets.zero
    /// Kept.
    open var role = Role.normal

    /// A button's role (`UIButton.Role`), kept.
    public enum Role: Int, Sendable { case normal, primary, cancel, destructive }

    /// A button of `buttonType`.
    public init(type buttonType: ButtonType) {
        self.buttonType = buttonType
        super.init(frame: .zero)
        titleLabel?.font = .systemFont(ofSize: 15)
    }

    /// A custom button with `frame`.
    public override init(frame: CGRect) {
        buttonType = .custom
        super.init(frame: frame)
        titleLabel?.font = .systemFont(ofSize: 15)
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A button whose `primaryAction` runs when tapped; its title and image are the action's.
    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction {
            setTitle(primaryAction.title, for: .normal)
            if let image = primaryAction.image { setImage(image, for: .normal) }
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    /// A button with `configuration`, running `primaryAction` when tapped.
    public convenience init(configuration: Configuration, primaryAction: UIAction? = nil) {
        self.init(type: .system)
        self.configuration = configuration
        if let primaryAction {
            if configuration.title == nil { setTitle(primaryAction.title, for: .normal) }
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    /// Sets the title for `state` (`.normal` is the one the form shows).
    open func setTitle(_ title: String?, for state: State) {
        titles[state.rawValue] = title
        titleLabel?.text = currentTitle
        screenDidChange()
    }

    /// The title for `state`, falling back to `.normal`'s.
    open func title(for state: State) -> String? {
        titles[state.rawValue] ?? titles[State.normal.rawValue]
    }

    /// The title shown now: the configuration's, else the one for the current state.
    open var currentTitle: String? { configuration?.title ?? title(for: state) }

    /// Sets the title color for `state` (kept).
    open func setTitleColor(_ color: UIColor?, for state: State) { titleColors[state.rawValue] = color }
    /// The title color for `state`.
    open func titleColor(for state: State) -> UIColor? { titleColors[state.rawValue] }
    /// Sets the image for `state` (kept).
    open func setImage(_ image: UIImage?, for state: State) { images[state.rawValue] = image }
    /// The image for `state`.
    open func image(for state: State) -> UIImage? { images[state.rawValue] ?? images[State.normal.rawValue] }
    /// The image shown now.
    open var currentImage: UIImage? { configuration?.image ?? image(for: state) }

    /// The title and image's size (``buttonContentSize()``).
    open override var intrinsicContentSize: CGSize { buttonContentSize() }

    /// What a tap does: `touchUpInside` and primary actions, in the order added.
    package func tap() {
        sendActions(for: [.touchUpInside, .primaryActionTriggered])
    }

    /// A button's look (`UIButton.Configuration`, iOS 15): the title counts, the rest is kept.
    public struct Configuration: Sendable {
        /// The title.
        public var title: String?
        /// The subtitle.
        public var subtitle: String?
        /// The image.
        public var image: UIImage?
        /// Kept.
        public var baseBackgroundColor: UIColor?
        /// Kept.
        public var baseForegroundColor: UIColor?
        /// Kept.
        public var cornerStyle = CornerStyle.dynamic
        /// Kept.
        public var buttonSize = Size.medium
        /// Kept.
        public var imagePadding: CGFloat = 0
        /// Kept.
        public var titlePadding: CGFloat = 0
        /// Kept.
        public var contentInsets = NSDirectionalEdgeInsets.zero
        /// Kept: a button showing its activity indicator is still offered.
        public var showsActivityIndicator = false

        /// Corner styles (`UIButton.Configuration.CornerStyle`).
        public enum CornerStyle: Int, Sendable { case fixed, dynamic, small, medium, large, capsule }
        /// Sizes (`UIButton.Configuration.Size`).
        public enum Size: Int, Sendable { case mini, small, medium, large }

        /// Which of the styles below made the configuration: how the button is drawn.
        package var look = Look.plain

        /// The drawn styles: `filled` and `borderedProminent` fill with the tint, `tinted` and
        /// `borderedTinted` with a pale tint, `gray` and `bordered` with grey; the others have no fill.
        package enum Look: Sendable { case plain, tinted, gray, filled }

        private static func with(_ look: Look) -> Configuration {
            var configuration = Configuration()
            configuration.look = look
            return configuration
        }

        public static func plain() -> Configuration { with(.plain) }
        public static func tinted() -> Configuration { with(.tinted) }
        public static func gray() -> Configuration { with(.gray) }
        public static func filled() -> Configuration { with(.filled) }
        public static func borderless() -> Configuration { with(.plain) }
        public static func bordered() -> Configuration { with(.gray) }
        public static func borderedTinted() -> Configuration { with(.tinted) }
        public static func borderedProminent() -> Configuration { with(.filled) }
    }
}

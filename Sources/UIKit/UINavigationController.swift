import Foundation

/// How a controller is presented (`UIModalPresentationStyle`), kept.
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0, pageSheet, formSheet, currentContext, custom, overFullScreen, overCurrentContext, popover
    case none = -1
    case automatic = -2
}

/// How a presentation animates (`UIModalTransitionStyle`), kept.
public enum UIModalTransitionStyle: Int, Sendable { case coverVertical = 0, flipHorizontal, crossDissolve, partialCurl }

/// Light or dark (`UIUserInterfaceStyle`), kept.
public enum UIUserInterfaceStyle: Int, Sendable { case unspecified, light, dark }

/// A navigation bar's items for one controller (`UINavigationItem`).
@preconcurrency @MainActor
open class UINavigationItem: NSObject {
    /// The title; the form's title when the controller has none.
    open var title: String? { didSet { ScreenSession.noteChange() } }
    /// The bar button on the left: an action of the form.
    open var leftBarButtonItem: UIBarButtonItem? { didSet { ScreenSession.noteChange() } }
    /// The bar button on the right: an action of the form.
    open var rightBarButtonItem: UIBarButtonItem? { didSet { ScreenSession.noteChange() } }
    /// Bar buttons on the left.
    open var leftBarButtonItems: [UIBarButtonItem]? {
        get { leftBarButtonItem.map { [$0] } }
        set { leftBarButtonItem = newValue?.first }
    }
    /// Bar buttons on the right.
    open var rightBarButtonItems: [UIBarButtonItem]? {
        get { rightBarButtonItem.map { [$0] } }
        set { rightBarButtonItem = newValue?.first }
    }
    /// Kept.
    open var hidesBackButton = false
    /// Kept.
    open var largeTitleDisplayMode = LargeTitleDisplayMode.automatic

    /// Large titles (`UINavigationItem.LargeTitleDisplayMode`), kept.
    public enum LargeTitleDisplayMode: Int, Sendable { case automatic, always, never }

    /// Items titled `title`.
    public init(title: String) {
        self.title = title.isEmpty ? nil : title
        super.init()
    }
}

/// A button in a navigation bar (`UIBarButtonItem`): an action of the form by its title
/// (a system item's title is its name, e.g. "Cancel", "Done").
@preconcurrency @MainActor
open class UIBarButtonItem: NSObject {
    /// Styles (`UIBarButtonItem.Style`), kept.
    public enum Style: Int, Sendable { case plain, bordered, done }
    /// System items (`UIBarButtonItem.SystemItem`).
    public enum SystemItem: Int, Sendable {
        case done, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize, bookmarks
        case search, refresh, stop, camera, trash, play, pause, rewind, fastForward, undo, redo, pageCurl, close

        var title: String? {
            switch self {
            case .done: return "Done"
            case .cancel: return "Cancel"
            case .edit: return "Edit"
            case .save: return "Save"
            case .close: return "Close"
            case .flexibleSpace, .fixedSpace: return nil
            default: return String(describing: self).capitalized
            }
        }
    }

    /// The title.
    open var title: String?
    /// Kept.
    open var style: Style
    /// Offered to the user while true.
    open var isEnabled = true
    /// What a tap runs.
    open var primaryAction: UIAction?
    /// The image; with ``accessibilityLabel``, it names a button without a title.
    open var image: UIImage?
    /// What VoiceOver says: names a button that shows only an image.
    open var accessibilityLabel: String?

    /// A button titled `title` running `primaryAction`; `style` is kept.
    public init(title: String?, style: Style = .plain, primaryAction: UIAction? = nil) {
        self.title = title ?? primaryAction?.title
        self.style = style
        self.primaryAction = primaryAction
        super.init()
    }

    /// A button with `primaryAction`, titled by it.
    public convenience init(primaryAction: UIAction?) {
        self.init(title: primaryAction?.title, primaryAction: primaryAction)
    }

    /// A system button running `primaryAction`.
    public convenience init(systemItem: SystemItem, primaryAction: UIAction? = nil) {
        self.init(title: systemItem.title, primaryAction: primaryAction)
    }

    /// A button titled `title` with an image.
    public convenience init(title: String?, image: UIImage?, primaryAction: UIAction?) {
        self.init(title: title, primaryAction: primaryAction)
        self.image = image ?? primaryAction?.image
    }
}

/// A stack of controllers (`UINavigationController`): the top one is the screen.
@preconcurrency @MainActor
open class UINavigationController: UIViewController {
    /// The controllers, bottom first.
    open var viewControllers: [UIViewController] {
        get { children }
        set {
            children.forEach { $0.removeFromParent() }
            newValue.forEach(addChild)
            ScreenSession.noteChange()
        }
    }

    /// The controller on top.
    open var topViewController: UIViewController? { children.last }
    /// The controller shown: the top one.
    open var visibleViewController: UIViewController? { presentedViewController ?? topViewController }
    /// True to hide the bar: the controllers' content then starts under the status bar.
    open var isNavigationBarHidden = false
    /// The bar's height under the status bar.
    package static let barHeight: CGFloat = 44

    /// A stack starting with `rootViewController`.
    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        addChild(rootViewController)
    }

    /// An empty stack.
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Pushes `viewController`: it becomes the screen, after its appearance callbacks.
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        addChild(viewController)
        viewController.beginAppearance()
        ScreenSession.noteChange()
    }

    /// Pops the top controller, unless it is the root.
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        guard children.count > 1, let top = children.last else { return nil }
        top.removeFromParent()
        top.endAppearance()
        return top
    }

    /// Pops back to the root.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        var popped: [UIViewController] = []
        while let top = popViewController(animated: animated) { popped.insert(top, at: 0) }
        return popped
    }

    /// Hides or shows the bar (kept).
    open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) { isNavigationBarHidden = hidden }

    override package func beginAppearance() {
        super.beginAppearance()
        topViewController?.beginAppearance()
    }
}

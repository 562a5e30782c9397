/// The base of objects that take part in the user interface (`UIResponder`).
@preconcurrency @MainActor
open class UIResponder: NSObject {
    /// Becomes the focus of typing (kept: there is no keyboard).
    @discardableResult
    open func becomeFirstResponder() -> Bool { true }
    /// Gives up the focus of typing.
    @discardableResult
    open func resignFirstResponder() -> Bool { true }
    /// False: nothing has the keyboard.
    open var isFirstResponder: Bool { false }
}

/// A view controller (`UIViewController`), the base of a UI extension's principal class.
///
/// There is no screen: the host's user agent (scripted answers in CI, a terminal when
/// interactive) stands in for one. What a controller presents reaches it: a
/// ``UIAlertController`` becomes a form (`ui.prompt`). The appearance callbacks arrive in
/// UIKit's order when Wallet presents the controller: ``loadView()``, ``viewDidLoad()``,
/// ``viewWillAppear(_:)``, ``viewDidAppear(_:)``, and on dismissal ``viewWillDisappear(_:)``
/// and ``viewDidDisappear(_:)``.
@preconcurrency @MainActor
open class UIViewController: UIResponder {
    private enum Appearance { case notShown, shown, dismissed }

    private var loadedView: UIView?
    private var appearance = Appearance.notShown

    /// The nib name given at creation (there are no nibs here; kept for source compatibility).
    public let nibName: String?
    /// The bundle given at creation.
    public let nibBundle: Bundle?

    /// A controller without a nib.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        nibName = nibNameOrNil
        nibBundle = nibBundleOrNil
        super.init()
    }

    /// Storyboards do not exist here; this initializer fails, as UIKit's does without an archive.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A controller without a nib, like `init(nibName: nil, bundle: nil)`.
    public convenience override init() {
        self.init(nibName: nil, bundle: nil)
    }

    /// The title shown in a navigation bar; the user agent shows it as the form's title.
    open var title: String? { didSet { ScreenSession.noteChange() } }

    /// The navigation bar's items for this controller: a bar button's title is an action of the form.
    public private(set) lazy var navigationItem = UINavigationItem(title: "")

    /// The child controllers (`addChild`), in order.
    open private(set) var children: [UIViewController] = []
    /// The controller this one is a child of.
    open private(set) weak var parent: UIViewController?
    /// How the controller is presented (kept).
    open var modalPresentationStyle = UIModalPresentationStyle.automatic
    /// Kept.
    open var modalTransitionStyle = UIModalTransitionStyle.coverVertical
    /// True to keep a sheet from being swiped away (kept).
    open var isModalInPresentation = false
    /// Kept.
    open var preferredContentSize = CGSize.zero
    /// Kept.
    open var overrideUserInterfaceStyle = UIUserInterfaceStyle.unspecified
    /// Kept.
    open var definesPresentationContext = false

    /// The navigation controller this one is in, if any.
    open var navigationController: UINavigationController? {
        var current = parent
        while let candidate = current {
            if let navigation = candidate as? UINavigationController { return navigation }
            current = candidate.parent
        }
        return nil
    }

    /// Adds `childController` as a child; its view is shown where the code adds it.
    open func addChild(_ childController: UIViewController) {
        childController.removeFromParent()
        childController.willMove(toParent: self)
        children.append(childController)
        childController.parent = self
    }

    /// Removes this controller from its parent.
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        ScreenSession.noteChange()
    }

    /// Brings the view up to date before the user agent's tap lands: UIKit views already are;
    /// a SwiftUI hosting controller renders its pending state changes.
    @_spi(WalletHost) open func updateBeforeTap() {
        for child in children { child.updateBeforeTap() }
    }

    /// Called before the controller is added to or removed from a parent.
    open func willMove(toParent parent: UIViewController?) {}
    /// Called after the controller was added to or removed from a parent.
    open func didMove(toParent parent: UIViewController?) {}

    /// The root view, loaded on first access with ``loadView()`` then ``viewDidLoad()``.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set { loadedView = newValue }
    }

    /// True once the view has been loaded.
    open var isViewLoaded: Bool { loadedView != nil }

    /// The view if it is loaded, without loading it.
    open var viewIfLoaded: UIView? { loadedView }

    /// Loads the view if it has not been loaded yet.
    open func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { loadedView = UIView() }
        // As UIKit's loadView makes it: the screen's size, so that viewDidLoad can size subviews from its bounds.
        if let view = loadedView, view.frame.size == .zero { view.frame = UIScreen.main.bounds }
        loadedView?.owningController = self
        viewDidLoad()
    }

    /// Creates the view; the default loads the controller's storyboard scene, if import
    /// carried one (``StoryboardScenes``), else creates an empty ``UIView``.
    open func loadView() {
        loadedView = StoryboardScenes.view(for: self) ?? UIView()
    }

    /// Called once after the view is loaded.
    open func viewDidLoad() {}
    /// Called before the view lays out its subviews (each layout pass; see UIViewController+Layout.swift).
    open func viewWillLayoutSubviews() {}
    /// Called after the view laid out its subviews: frames and bounds are final here.
    open func viewDidLayoutSubviews() {}

    /// Called before the controller appears.
    open func viewWillAppear(_ animated: Bool) {}

    /// Called after the controller appeared.
    open func viewDidAppear(_ animated: Bool) {}

    /// Called before the controller disappears.
    open func viewWillDisappear(_ animated: Bool) {}

    /// Called after the controller disappeared.
    open func viewDidDisappear(_ animated: Bool) {}

    /// The controller this one presents, while it is presented.
    open private(set) var presentedViewController: UIViewController?

    /// The controller presenting this one, while it is presented.
    open private(set) weak var presentingViewController: UIViewController?

    /// Presents `viewControllerToPresent`. A ``UIAlertController`` is shown to the user by the
    /// host's user agent; its chosen action's handler runs on the main thread, then `completion`.
    /// Other controllers go through their appearance callbacks.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool,
                      completion: (() -> Void)? = nil) {
        presentedViewController = viewControllerToPresent
        viewControllerToPresent.presentingViewController = self
        viewControllerToPresent.wasPresented(by: self)
        completion?()
        ScreenSession.noteChange()
    }

    /// Dismisses the controller this one presents (or this one, when it is presented).
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        if let presented = presentedViewController {
            presentedViewController = nil
            presented.presentingViewController = nil
            presented.endAppearance()
            ScreenSession.noteChange()
        } else if let presenter = presentingViewController {
            presenter.dismiss(animated: flag, completion: nil)
        }
        completion?()
    }

    /// What presenting does to this controller: the appearance callbacks. A
    /// ``UIAlertController`` asks the user instead.
    func wasPresented(by presenter: UIViewController) {
        beginAppearance()
    }

    /// Loads the view if needed and runs `viewWillAppear` then `viewDidAppear`, once.
    package func beginAppearance() {
        guard appearance == .notShown else { return }
        appearance = .shown
        loadViewIfNeeded()
        viewWillAppear(true)
        layOutForScreen()
        viewDidAppear(true)
    }

    /// Runs `viewWillDisappear` then `viewDidDisappear`, once, if the controller appeared.
    package func endAppearance() {
        guard appearance == .shown else { return }
        appearance = .dismissed
        viewWillDisappear(true)
        viewDidDisappear(true)
    }
}

/// The base of objects that take part in the user interface (`UIResponder`).
@preconcurrency @MainActor
open class UIResponder: NSObject {}

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

    /// The title shown in a navigation bar; the user agent shows it with presented forms.
    open var title: String?

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
        viewDidLoad()
    }

    /// Creates the view; the default creates an empty ``UIView``.
    open func loadView() {
        loadedView = UIView()
    }

    /// Called once after the view is loaded.
    open func viewDidLoad() {}

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
    }

    /// Dismisses the controller this one presents (or this one, when it is presented).
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        if let presented = presentedViewController {
            presentedViewController = nil
            presented.presentingViewController = nil
            presented.endAppearance()
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

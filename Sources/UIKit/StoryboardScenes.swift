import Foundation

/// The initial scenes of storyboards, as `wallet-host import` turns them into Swift: a scene
/// builds a controller's root view with its subviews, connects its outlets and actions, and
/// ``UIViewController/loadView()`` uses it for a controller of that class, as iOS loads the
/// storyboard's scene before `viewDidLoad`.
///
/// The SDK reads no storyboard at run time; import reads the `.storyboard` XML and writes a
/// `StoryboardScenes.swift` that registers each scene before the extension starts:
///
///     StoryboardScenes.register(ActionViewController.self, storyboard: "MainInterface") { controller in
///         let view = UIView()
///         let title = UILabel()
///         title.text = "Add card"
///         view.addSubview(title)
///         controller.titleLabel = title
///         return view
///     }
@MainActor
public enum StoryboardScenes {
    private static var builders: [ObjectIdentifier: (storyboard: String, build: @MainActor (UIViewController) -> UIView)] = [:]

    /// Registers the scene that builds `Controller`'s root view.
    /// - Parameters:
    ///   - type: The scene's view controller class (its Custom Class in the storyboard).
    ///   - storyboard: The storyboard's name, for messages.
    ///   - build: Makes the root view with its subviews, and connects outlets and actions of `controller`.
    public static func register<Controller: UIViewController>(
        _ type: Controller.Type, storyboard: String, build: @escaping @MainActor (Controller) -> UIView
    ) {
        builders[ObjectIdentifier(type)] = (storyboard, { controller in
            guard let typed = controller as? Controller else { return UIView() }
            return build(typed)
        })
    }

    /// The root view of `controller`'s scene, if a scene of its class is registered.
    static func view(for controller: UIViewController) -> UIView? {
        builders[ObjectIdentifier(type(of: controller))].map { $0.build(controller) }
    }

    /// The storyboard whose scene is registered for `type`, if any.
    static func storyboard(of type: UIViewController.Type) -> String? {
        builders[ObjectIdentifier(type)]?.storyboard
    }
}
